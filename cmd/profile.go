package cmd

import (
	"context"
	"fmt"
	"strconv"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"kardan/store"
)

func newProfileCmd(g *Globals) *cobra.Command {
	c := &cobra.Command{
		Use:   "profile",
		Short: "List and moderate business profiles",
	}
	var status string
	var limit int
	list := &cobra.Command{
		Use:          "list",
		Short:        "List profiles, newest first (--status Pending|Accepted|Rejected|Blocked|Deleted)",
		Args:         cobra.NoArgs,
		SilenceUsage: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := store.Open(cmd.Context(), g.DBPath())
			if err != nil {
				return err
			}
			defer st.Close()
			f := store.ProfileFilter{Limit: limit, IncludeDelete: true}
			if status != "" {
				if !store.ValidStatus(status) && status != store.StatusDeleted {
					return fmt.Errorf("--status %q: use Pending, Accepted, Rejected, Blocked or Deleted", status)
				}
				f.Status = &status
			}
			ps, total, err := st.Profiles(cmd.Context(), f)
			if err != nil {
				return err
			}
			w := tabwriter.NewWriter(g.Out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(w, "ID\tSTATUS\tOWNER\tNAME\tSLUG")
			for _, p := range ps {
				fmt.Fprintf(w, "%d\t%s\t%d\t%s\t%s\n", p.ID, p.ShownStatus(), p.UserID, p.ProfileName, p.Slug)
			}
			w.Flush()
			fmt.Fprintf(g.Out, "%d of %d profiles\n", len(ps), total)
			return nil
		},
	}
	list.Flags().StringVar(&status, "status", "", "only profiles in this status")
	list.Flags().IntVar(&limit, "limit", 50, "at most this many")
	c.AddCommand(list)
	for _, move := range []struct{ use, status, short string }{
		{"accept", store.StatusAccepted, "Accept a pending profile, or unblock a blocked one"},
		{"reject", store.StatusRejected, "Reject a pending profile (the owner can edit and resubmit)"},
		{"block", store.StatusBlocked, "Block an accepted profile"},
	} {
		c.AddCommand(newProfileMoveCmd(g, move.use, move.status, move.short))
	}
	return c
}

func newProfileMoveCmd(g *Globals, use, status, short string) *cobra.Command {
	return newMoveCmd(g, "profile", use, short, "a note for the owner, recorded in the audit log",
		func(ctx context.Context, st *store.Store, id int64, note string) (string, error) {
			p, err := st.SetProfileStatus(ctx, nil, id, status, note)
			if err != nil {
				return "", err
			}
			return fmt.Sprintf("profile %d (%s) is now %s", p.ID, p.ProfileName, p.AccountStatus), nil
		})
}

// newMoveCmd builds a moderation command "USE ID [--note]" for noun: it opens the store, runs
// move as the operator (no acting user) and prints what move answers.
func newMoveCmd(g *Globals, noun, use, short, noteHelp string,
	move func(ctx context.Context, st *store.Store, id int64, note string) (string, error)) *cobra.Command {
	var note string
	c := &cobra.Command{
		Use:          use + " ID",
		Short:        short,
		Args:         cobra.ExactArgs(1),
		SilenceUsage: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			id, err := strconv.ParseInt(args[0], 10, 64)
			if err != nil || id <= 0 {
				return fmt.Errorf("%s id %q: want a positive number", noun, args[0])
			}
			st, err := store.Open(cmd.Context(), g.DBPath())
			if err != nil {
				return err
			}
			defer st.Close()
			done, err := move(cmd.Context(), st, id, note)
			if err != nil {
				return cliError(err)
			}
			fmt.Fprintln(g.Out, done)
			return nil
		},
	}
	c.Flags().StringVar(&note, "note", "", noteHelp)
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
