package cmd

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"kardan/doctor"
	"kardan/store"
)

func newDoctorCmd(g *Globals) *cobra.Command {
	var c doctor.Config
	var sc ServeConfig
	var proxies string
	fromEnv := &envReader{}
	c2 := &cobra.Command{
		Use:   "doctor",
		Short: "Check what an operator checks before going live, and say how to fix each finding",
		Long: `doctor checks the data directory (permissions, free space), the database (SQLite's quick_check,
or integrity_check with --full; schema version; reference data; an administrator), the search
index against the database, the image storage (with --uploads: the bucket and its newest
image), the SMS sender (a test SMS with --to), --base-url and
--trusted-proxy, the age of the newest backup, and the clock and time zone. It reads the same
flags and KARDAN_* variables as serve, so run it with the service's environment:

  sudo -u kardan env $(cat /etc/kardan/kardan.env) kardan doctor --data /var/lib/kardan

It changes nothing and works beside a running server, except that the search index is then
not compared (Bleve locks it; the running server keeps it in step). It exits with status 1 when
a check fails; warnings alone exit 0.`,
		Args:         cobra.NoArgs,
		SilenceUsage: true,
		PreRunE:      func(*cobra.Command, []string) error { return fromEnv.Err() },
		RunE: func(cmd *cobra.Command, args []string) error {
			c.DataDir = g.DataDir
			c.Addr, c.BaseURL, c.TrustedProxies, c.Timezone = sc.Addr, sc.BaseURL, proxies, sc.Timezone
			c.SMS, c.SMSKey, c.SMSTemplate, c.BackupEvery = sc.SMS, sc.SMSKey, sc.SMSTemplate, sc.BackupEvery
			c.Uploads, c.OpenUploads = g.Uploads, g.OpenStorage
			c.SchemaVersion = schemaVersion()
			c.UnstablePlans = !g.OnPostgres() && !store.StablePlans()
			if t, err := time.Parse(time.RFC3339, CommitDate); err == nil {
				c.BuiltAt = t
			}
			fmt.Fprintf(g.Out, "kardan doctor %s: %s\n\n", Version, g.DataDir)
			rs := doctor.Run(cmd.Context(), c)
			doctor.Print(g.Out, rs)
			if n := doctor.Failed(rs); n > 0 {
				return fmt.Errorf("doctor: %d check(s) failed", n)
			}
			fmt.Fprintln(g.Out, "\nno check failed")
			return nil
		},
	}
	addSharedFlags(c2, &sc, &proxies, fromEnv)
	f := c2.Flags()
	f.StringVar(&c.SMSTo, "to", "", "send a test SMS to this mobile number through the configured sender")
	f.BoolVar(&c.FullIntegrity, "full", false, "run PRAGMA integrity_check (slower, also checks every index) instead of quick_check")
	return c2
}
