package cmd

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"kardan/admin"
	"kardan/store"
)

func newPurgeCmd(g *Globals) *cobra.Command {
	return &cobra.Command{
		Use:   "purge",
		Short: "Remove profiles deleted over 30 days ago and images nothing uses (serve does this daily)",
		Long: `purge removes for good the profiles deleted more than 30 days ago (with their comments), and
every stored image that no profile, account or blog uses and that was uploaded over a week ago.
A running server does the same once a day.`,
		Args:         cobra.NoArgs,
		SilenceUsage: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			return withStore(cmd, g, func(ctx context.Context, st *store.Store) error {
				storage, err := g.OpenStorage(ctx)
				if err != nil {
					return err
				}
				rep, err := admin.Purge(ctx, st, storage)
				if err != nil {
					return err
				}
				fmt.Fprintf(g.Out, "purged %d profiles and %d image files\n", rep.Profiles, rep.Images)
				return nil
			})
		},
	}
}
