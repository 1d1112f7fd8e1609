package main

import "embed"

// webDist is the built web app. webui/dist keeps a committed placeholder index.html, so the binary
// builds and tests run before the app is built with Node.
//
//go:embed all:webui/dist
var webDist embed.FS
