package cmd

import (
	"context"
	"fmt"
	"strconv"

	"github.com/spf13/cobra"

	"kardan/store"
)

// moderation describes one kind of thing the operator lists and moderates from the command line
// (profiles, blogs): newModerationCmd makes its "list" and its move commands.
type moderation struct {
	use, short string // the parent command
	noun       string // "profile", in messages
	listShort  string
	// list prints at most limit of them in status ("" for all) to the command's output.
	list     func(ctx context.Context, st *store.Store, status string, limit int) error
	moves    []moderationMove
	noteHelp string
	// move moves one to status as the operator, answering what to print.
	move func(ctx context.Context, st *store.Store, id int64, status, note string) (string, error)
}

// moderationMove is one move command: "accept ID", "reject ID", "block ID".
type moderationMove struct{ use, status, short string }

// newModerationCmd builds m's parent command with "list [--status] [--limit]" and a command
// "USE ID [--note]" for each move.
func newModerationCmd(g *Globals, m moderation) *cobra.Command {
	c := &cobra.Command{Use: m.use, Short: m.short}
	var status string
	var limit int
	list := &cobra.Command{
		Use:          "list",
		Short:        m.listShort,
		Args:         cobra.NoArgs,
		SilenceUsage: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			return withStore(cmd, g, func(ctx context.Context, st *store.Store) error {
				return m.list(ctx, st, status, limit)
			})
		},
	}
	list.Flags().StringVar(&status, "status", "", "only "+m.noun+"s in this status")
	list.Flags().IntVar(&limit, "limit", 50, "at most this many")
	c.AddCommand(list)
	for _, mv := range m.moves {
		c.AddCommand(newMoveCmd(g, m, mv))
	}
	return c
}

// newMoveCmd builds the moderation command "USE ID [--note]": it opens the store, runs the move
// as the operator (no acting user) and prints what it answers.
func newMoveCmd(g *Globals, m moderation, mv moderationMove) *cobra.Command {
	var note string
	c := &cobra.Command{
		Use:          mv.use + " ID",
		Short:        mv.short,
		Args:         cobra.ExactArgs(1),
		SilenceUsage: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			id, err := strconv.ParseInt(args[0], 10, 64)
			if err != nil || id <= 0 {
				return fmt.Errorf("%s id %q: want a positive number", m.noun, args[0])
			}
			return withStore(cmd, g, func(ctx context.Context, st *store.Store) error {
				done, err := m.move(ctx, st, id, mv.status, note)
				if err != nil {
					return cliError(err)
				}
				fmt.Fprintln(g.Out, done)
				return nil
			})
		},
	}
	c.Flags().StringVar(&note, "note", "", m.noteHelp)
	return c
}

// cliError words an application error for the operator's terminal.
func cliError(err error) error {
	switch store.ErrorCode(err) {
	case store.ENotFound:
		return fmt.Errorf("not found")
	case store.EConflict:
		return fmt.Errorf("not allowed from the current status: %w", err)
	}
	return err
}
