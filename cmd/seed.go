package cmd

import (
	"fmt"

	"github.com/spf13/cobra"

	"kardan/admin"
	"kardan/store"
)

func newSeedCmd(g *Globals) *cobra.Command {
	c := &cobra.Command{
		Use:   "seed",
		Short: "Load Iran's reference data (provinces, cities, work categories); safe to run again",
		Long: `seed loads the reference data embedded in the binary: Iran's 31 provinces, its cities with their
coordinates, and the tree of fields of work and categories. Rows are keyed by stable ids, so running
it again changes nothing unless the binary's data changed.`,
		Args:         cobra.NoArgs,
		SilenceUsage: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			st, err := store.Open(ctx, g.DBPath())
			if err != nil {
				return err
			}
			defer st.Close()
			n, err := admin.SeedReference(ctx, st)
			if err != nil {
				return err
			}
			fmt.Fprintf(g.Out, "reference data: %d provinces, %d cities, %d categories inserted or changed\n",
				n.Provinces, n.Cities, n.Categories)
			return nil
		},
	}
	return c
}

func schemaVersion() int { return store.SchemaVersion() }
