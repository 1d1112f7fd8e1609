package cmd

import (
	"context"
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"kardan/store"
)

func newBlogCmd(g *Globals) *cobra.Command {
	return newModerationCmd(g, moderation{
		use:       "blog",
		short:     "List and moderate blog articles",
		noun:      "blog",
		listShort: "List blogs, newest first (--status Draft|Pending|Accepted|Published|Rejected|Blocked)",
		list: func(ctx context.Context, st *store.Store, status string, limit int) error {
			f := store.BlogFilter{Limit: limit}
			if status != "" {
				if !store.ValidBlogStatus(status) {
					return fmt.Errorf("--status %q: use Draft, Pending, Accepted, Published, Rejected or Blocked", status)
				}
				f.Status = &status
			}
			bs, total, err := st.Blogs(ctx, f)
			if err != nil {
				return err
			}
			now := st.Now().Unix()
			w := tabwriter.NewWriter(g.Out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(w, "ID\tSTATUS\tWRITER\tRELEASE\tTITLE\tSLUG")
			for _, b := range bs {
				fmt.Fprintf(w, "%d\t%s\t%d\t%s\t%s\t%s\n", b.ID, b.ShownStatus(now), b.WriterID,
					time.Unix(b.ReleaseAt, 0).UTC().Format("2006-01-02 15:04"), b.Title, b.Slug)
			}
			w.Flush()
			fmt.Fprintf(g.Out, "%d of %d blogs\n", len(bs), total)
			return nil
		},
		moves: []moderationMove{
			{"accept", store.StatusAccepted, "Accept a pending blog (published on its release date), or unblock a blocked one"},
			{"reject", store.StatusRejected, "Reject a pending blog (the writer can edit and resubmit)"},
			{"block", store.StatusBlocked, "Block an accepted blog"},
		},
		noteHelp: "a note for the writer, recorded in the audit log",
		move: func(ctx context.Context, st *store.Store, id int64, status, note string) (string, error) {
			b, err := st.SetBlogStatus(ctx, nil, id, status, note)
			if err != nil {
				return "", err
			}
			return fmt.Sprintf("blog %d (%s) is now %s", b.ID, b.Title, b.ShownStatus(st.Now().Unix())), nil
		},
	})
}
