package cmd

import (
	"context"
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"kardan/store"
)

func newProfileCmd(g *Globals) *cobra.Command {
	return newModerationCmd(g, moderation{
		use:       "profile",
		short:     "List and moderate business profiles",
		noun:      "profile",
		listShort: "List profiles, newest first (--status Pending|Accepted|Rejected|Blocked|Deleted)",
		list: func(ctx context.Context, st *store.Store, status string, limit int) error {
			f := store.ProfileFilter{Limit: limit, IncludeDelete: true}
			if status != "" {
				if !store.ValidStatus(status) && status != store.StatusDeleted {
					return fmt.Errorf("--status %q: use Pending, Accepted, Rejected, Blocked or Deleted", status)
				}
				f.Status = &status
			}
			ps, total, err := st.Profiles(ctx, f)
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
		moves: []moderationMove{
			{"accept", store.StatusAccepted, "Accept a pending profile, or unblock a blocked one"},
			{"reject", store.StatusRejected, "Reject a pending profile (the owner can edit and resubmit)"},
			{"block", store.StatusBlocked, "Block an accepted profile"},
		},
		noteHelp: "a note for the owner, recorded in the audit log",
		move: func(ctx context.Context, st *store.Store, id int64, status, note string) (string, error) {
			p, err := st.SetProfileStatus(ctx, nil, id, status, note)
			if err != nil {
				return "", err
			}
			return fmt.Sprintf("profile %d (%s) is now %s", p.ID, p.ProfileName, p.AccountStatus), nil
		},
	})
}
