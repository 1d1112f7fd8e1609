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
	c := &cobra.Command{
		Use:   "blog",
		Short: "List and moderate blog articles",
	}
	var status string
	var limit int
	list := &cobra.Command{
		Use:          "list",
		Short:        "List blogs, newest first (--status Draft|Pending|Accepted|Published|Rejected|Blocked)",
		Args:         cobra.NoArgs,
		SilenceUsage: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := store.Open(cmd.Context(), g.DBPath())
			if err != nil {
				return err
			}
			defer st.Close()
			f := store.BlogFilter{Limit: limit}
			if status != "" {
				if !store.ValidBlogStatus(status) {
					return fmt.Errorf("--status %q: use Draft, Pending, Accepted, Published, Rejected or Blocked", status)
				}
				f.Status = &status
			}
			bs, total, err := st.Blogs(cmd.Context(), f)
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
	}
	list.Flags().StringVar(&status, "status", "", "only blogs in this status")
	list.Flags().IntVar(&limit, "limit", 50, "at most this many")
	c.AddCommand(list)
	for _, move := range []struct{ use, status, short string }{
		{"accept", store.StatusAccepted, "Accept a pending blog (published on its release date), or unblock a blocked one"},
		{"reject", store.StatusRejected, "Reject a pending blog (the writer can edit and resubmit)"},
		{"block", store.StatusBlocked, "Block an accepted blog"},
	} {
		c.AddCommand(newBlogMoveCmd(g, move.use, move.status, move.short))
	}
	return c
}

func newBlogMoveCmd(g *Globals, use, status, short string) *cobra.Command {
	return newMoveCmd(g, "blog", use, short, "a note for the writer, recorded in the audit log",
		func(ctx context.Context, st *store.Store, id int64, note string) (string, error) {
			b, err := st.SetBlogStatus(ctx, nil, id, status, note)
			if err != nil {
				return "", err
			}
			return fmt.Sprintf("blog %d (%s) is now %s", b.ID, b.Title, b.ShownStatus(st.Now().Unix())), nil
		})
}
