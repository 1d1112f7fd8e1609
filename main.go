// Command kardan runs the Kardan directory: its server, and the operator's tools.
package main

import (
	"fmt"
	"io/fs"
	"os"

	"kardan/cmd"
)

func main() {
	web, err := fs.Sub(webDist, "webui/dist")
	if err != nil {
		fmt.Fprintln(os.Stderr, "kardan:", err)
		os.Exit(1)
	}
	if err := cmd.NewRootCmd(web).Execute(); err != nil {
		fmt.Fprintln(os.Stderr, "kardan:", err)
		os.Exit(1)
	}
}
