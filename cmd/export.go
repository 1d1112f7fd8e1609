package cmd

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"kardan/admin"
	"kardan/store"
)

func newExportCmd(g *Globals) *cobra.Command {
	var format, owner, out string
	c := &cobra.Command{
		Use:   "export",
		Short: "Export accounts, profiles, blogs and comments as JSON (all, or one owner's)",
		Long: `export writes every account (never a password hash), business profile, blog article and comment
as one JSON document, for moving the data to another system or answering a person who asks for
their data. --owner PHONE exports only that account and what it wrote. Safe beside a running
server: it only reads.`,
		Args:         cobra.NoArgs,
		SilenceUsage: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if format != "json" {
				return fmt.Errorf("--format %q: only json is supported", format)
			}
			if err := requireDB(g); err != nil {
				return err
			}
			var opt admin.ExportOptions
			if owner != "" {
				phone, err := phoneArg(owner)
				if err != nil {
					return err
				}
				opt.Owner = phone
			}
			var w io.Writer = g.Out
			var f *os.File
			if out != "" && out != "-" {
				var err error
				if f, err = os.OpenFile(out, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600); err != nil {
					return fmt.Errorf("export: %w", err)
				}
				defer f.Close()
				w = f
			}
			st, err := store.Open(cmd.Context(), g.DBPath())
			if err != nil {
				return err
			}
			defer st.Close()
			n, err := admin.Export(cmd.Context(), st, w, opt)
			if err != nil {
				return notFoundPhone(err, opt.Owner)
			}
			if f != nil {
				if err := f.Close(); err != nil {
					return fmt.Errorf("export: %w", err)
				}
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "exported %d accounts, %d profiles, %d blogs, %d comments\n",
				n.Users, n.Profiles, n.Blogs, n.Comments)
			return nil
		},
	}
	c.Flags().StringVar(&format, "format", "json", "output format (json)")
	c.Flags().StringVar(&owner, "owner", "", "export only the account with this mobile number and what it wrote")
	c.Flags().StringVar(&out, "out", "", "write to this file instead of standard output")
	return c
}
