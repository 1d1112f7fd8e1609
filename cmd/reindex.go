package cmd

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"kardan/search"
	"kardan/store"
)

func newReindexCmd(g *Globals) *cobra.Command {
	return &cobra.Command{
		Use:   "reindex",
		Short: "Rebuild the search index from the database (refused while kardan serve runs)",
		Long: `reindex builds a fresh search index of every visible profile into a new directory and swaps it
in. The index is derived data: the database is never changed. A running server holds the index,
so stop it first; serve also rebuilds a missing or damaged index by itself at start-up.`,
		Args:         cobra.NoArgs,
		SilenceUsage: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			return withStore(cmd, g, func(ctx context.Context, st *store.Store) error {
				start := time.Now()
				if err := search.Rebuild(ctx, g.IndexDir(), st); err != nil {
					return err
				}
				fmt.Fprintf(g.Out, "search index rebuilt in %.1f s\n", time.Since(start).Seconds())
				return nil
			})
		},
	}
}
