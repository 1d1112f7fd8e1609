package cmd

import (
	"context"
	"fmt"
	"io"
	"net"
	"strings"
	"time"

	"kardan/setup"
	"kardan/store"
)

// openSetup offers the one-time setup page when the database has no administrator yet.
func (a *App) openSetup(ctx context.Context, proxies []*net.IPNet) error {
	role := store.RoleAdmin
	_, admins, err := a.Store.Users(ctx, store.UserFilter{Role: &role, Limit: 1})
	if err != nil {
		return err
	}
	if admins > 0 {
		return nil
	}
	a.noAdmin = true
	if setup.LoopbackTrusted(proxies) {
		return nil
	}
	clock := a.cfg.Clock
	if clock == nil {
		clock = time.Now
	}
	page, token, err := setup.New(a.Store, proxies, clock)
	if err != nil {
		return err
	}
	a.Setup, a.setupToken = page, token
	a.Handler = page.Wrap(a.Handler)
	return nil
}

// SetupURL answers the one-time setup page's address on this machine ("" when none is offered).
// A server listening on every address is reached through 127.0.0.1.
func (a *App) SetupURL() string {
	if a.Setup == nil || a.listener == nil {
		return ""
	}
	host, port, err := net.SplitHostPort(a.Addr())
	if err != nil {
		return ""
	}
	ip := net.ParseIP(host)
	switch {
	case ip == nil || ip.IsUnspecified():
		host = "127.0.0.1"
	case !ip.IsLoopback():
		// Listening on one outside address only: loopback cannot reach it, so neither can
		// the page's only allowed visitor.
		return ""
	}
	return "http://" + net.JoinHostPort(host, port) + setup.Prefix + a.setupToken
}

// printFirstRun tells the operator how to get a first administrator when there is none.
func (a *App) printFirstRun(w io.Writer) {
	if !a.noAdmin {
		return
	}
	data := a.g.DataDir
	if strings.ContainsAny(data, " '\"$\\") {
		data = "'" + strings.ReplaceAll(data, "'", `'\''`) + "'"
	}
	fmt.Fprintf(w, "\nThere is no administrator yet. Create one from this machine's shell:\n")
	fmt.Fprintf(w, "  kardan user create --data %s --phone 09xxxxxxxxx --name 'Admin' --password '…' --admin\n", data)
	if u := a.SetupURL(); u != "" {
		fmt.Fprintf(w, "or open this one-time page in a browser on this machine (valid until %s, gone once used):\n  %s\n\n",
			a.Setup.Expires().Format("15:04 MST"), u)
		return
	}
	if a.Setup == nil {
		fmt.Fprintf(w, "(no setup page is offered: --trusted-proxy covers a loopback address, so no request could prove it comes from this machine)\n\n")
		return
	}
	fmt.Fprintf(w, "(no setup page is offered: --addr %s is not reachable through loopback)\n\n", a.cfg.Addr)
}
