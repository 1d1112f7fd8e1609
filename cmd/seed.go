package cmd

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"kardan/admin"
	"kardan/auth"
	"kardan/media"
	"kardan/store"
)

func newSeedCmd(g *Globals) *cobra.Command {
	var demo int
	c := &cobra.Command{
		Use:   "seed",
		Short: "Load Iran's reference data (provinces, cities, work categories); safe to run again",
		Long: `seed loads the reference data embedded in the binary: Iran's 31 provinces, its counties, every
official city with its coordinates, and the tree of fields of work and categories. Rows are keyed by stable ids, so running
it again changes nothing unless the binary's data changed.

With --demo N it also makes N realistic demo profiles (every owner's password is "kardan-demo");
run kardan reindex afterwards, or let a running server index them.`,
		Args:         cobra.NoArgs,
		SilenceUsage: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			return withStore(cmd, g, func(ctx context.Context, st *store.Store) error {
				n, err := applyReference(ctx, st)
				if err != nil {
					return err
				}
				fmt.Fprintf(g.Out, "reference data: %d provinces, %d counties, %d cities, %d categories inserted or changed\n",
					n.Provinces, n.Counties, n.Cities, n.Categories)
				if n.Profiles > 0 {
					fmt.Fprintf(g.Out, "%d profiles follow their moved or renamed city or category\n", n.Profiles)
				}
				if n.Skipped > 0 {
					fmt.Fprintf(g.Out, "%d shipped rows left out: an operator's row holds their id or slug\n", n.Skipped)
				}
				if demo <= 0 {
					return nil
				}
				hash, err := auth.NewHasher(auth.DefaultParams, 1).Hash(ctx, demoPassword)
				if err != nil {
					return err
				}
				uploads, err := g.OpenStorage(ctx)
				if err != nil {
					return err
				}
				start := time.Now()
				d, err := admin.SeedDemo(ctx, st, admin.DemoOptions{Profiles: demo, PasswordHash: hash, Seed: 1,
					Media: media.NewProcessor(uploads, media.Options{})})
				if err != nil {
					return err
				}
				fmt.Fprintf(g.Out, "demo data: %d profiles, %d accounts, %d comments, %d trade pictures in %.1f s (password %q)\n",
					d.Profiles, d.Users, d.Comments, d.Pictures, time.Since(start).Seconds(), demoPassword)
				return nil
			})
		},
	}
	c.Flags().IntVar(&demo, "demo", 0, "also make this many demo profiles")
	return c
}

// applyReference loads the reference data embedded in the binary into st. `seed` and every
// start of `serve` go through this one function: the load is keyed by stable ids and rewrites
// only rows that differ, so a newer binary's provinces, cities and categories reach an existing
// database, and whatever operators added under other ids is left alone.
func applyReference(ctx context.Context, st *store.Store) (store.ReferenceCounts, error) {
	return admin.SeedReference(ctx, st)
}

// demoPassword is every demo account's password.
const demoPassword = "kardan-demo"

func schemaVersion() int { return store.SchemaVersion() }
