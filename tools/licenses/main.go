// Command licenses writes docs/licenses.md: every Go module and npm package that ends up in the
// kardan binary, with its licence, read from the module cache and webui/node_modules. It exits
// non-zero when a licence cannot be placed or is not compatible with Kardan's MIT licence, so
// `make licenses` fails before an incompatible dependency ships.
//
// Run from the repository root: go run ./tools/licenses > docs/licenses.md
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// tags are the build tags of every kardan build.
const tags = "sqlite_fts5 sqlite_math_functions"

// compatible lists the licences (SPDX ids) whose code may be built into an MIT-licensed binary.
var compatible = map[string]string{
	"MIT":           "permissive",
	"BSD-2-Clause":  "permissive",
	"BSD-3-Clause":  "permissive",
	"Apache-2.0":    "permissive; keep its NOTICE",
	"ISC":           "permissive",
	"0BSD":          "permissive",
	"Unlicense":     "public domain",
	"CC0-1.0":       "public domain",
	"MPL-2.0":       "file-level copyleft: its files stay MPL, unmodified here",
	"OFL-1.1":       "font licence: the font may be bundled with any software",
	"Python-2.0":    "permissive",
	"BlueOak-1.0.0": "permissive",
}

// pkg is one dependency and what was found about its licence.
type pkg struct {
	Name, Version, License, Source, Note string
	// Files are the licence files' paths.
	Files []string
}

func main() {
	notices := flag.Bool("notices", false, "write every dependency's licence text (THIRD_PARTY_NOTICES, for release tarballs) instead of the list")
	flag.Parse()
	goPkgs, err := goModules()
	if err != nil {
		fail(err)
	}
	npmPkgs, err := npmPackages("webui")
	if err != nil {
		fail(err)
	}
	var bad []string
	for _, p := range append(append([]pkg{}, goPkgs...), npmPkgs...) {
		if !isCompatible(p.License) {
			bad = append(bad, fmt.Sprintf("%s %s: %q", p.Name, p.Version, p.License))
		}
	}
	if *notices {
		if err := writeNotices(os.Stdout, goPkgs, npmPkgs); err != nil {
			fail(err)
		}
	} else {
		write(os.Stdout, goPkgs, npmPkgs)
	}
	if len(bad) > 0 {
		fail(fmt.Errorf("licences unknown or not compatible with MIT:\n  %s", strings.Join(bad, "\n  ")))
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "licenses:", err)
	os.Exit(1)
}

type module struct {
	Path, Version, Dir string
	Main               bool
	Replace            *module
}

// goModules answers the modules whose packages the kardan binary links: `go list -deps` of the
// main package names them, `go list -m -json all` gives each one's directory in the module cache.
func goModules() ([]pkg, error) {
	out, err := run("go", "list", "-deps", "-tags", tags, "-f", "{{with .Module}}{{.Path}}{{end}}", ".")
	if err != nil {
		return nil, err
	}
	linked := map[string]bool{}
	for _, l := range strings.Fields(string(out)) {
		linked[l] = true
	}
	out, err = run("go", "list", "-m", "-json", "all")
	if err != nil {
		return nil, err
	}
	var pkgs []pkg
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var m module
		if err := dec.Decode(&m); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return nil, err
		}
		if m.Main || !linked[m.Path] {
			continue
		}
		if m.Replace != nil {
			m.Version, m.Dir = m.Replace.Version, m.Replace.Dir
		}
		lic, files, err := licenseOfDir(m.Dir)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", m.Path, err)
		}
		p := pkg{Name: m.Path, Version: m.Version, License: lic, Files: files}
		for _, f := range files {
			p.Source = strings.TrimPrefix(p.Source+", "+filepath.Base(f), ", ")
		}
		if m.Path == "github.com/mattn/go-sqlite3" {
			p.Note = "embeds SQLite's amalgamation, which is in the public domain"
		}
		pkgs = append(pkgs, p)
	}
	sort.Slice(pkgs, func(i, j int) bool { return pkgs[i].Name < pkgs[j].Name })
	return pkgs, nil
}

func run(name string, args ...string) ([]byte, error) {
	c := exec.Command(name, args...)
	c.Stderr = os.Stderr
	out, err := c.Output()
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", name, strings.Join(args, " "), err)
	}
	return out, nil
}

var licenseFile = regexp.MustCompile(`(?i)^(licen[cs]e|copying)([.-].*)?$`)

// licenseOfDir reads a module's licence file(s) and classifies them.
func licenseOfDir(dir string) (string, []string, error) {
	if dir == "" {
		return "", nil, errors.New("not in the module cache: run go mod download")
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", nil, err
	}
	var ids, files []string
	for _, e := range entries {
		if e.IsDir() || !licenseFile.MatchString(e.Name()) {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return "", nil, err
		}
		if id := classify(string(b)); id != "" && !contains(ids, id) {
			ids = append(ids, id)
		}
		files = append(files, filepath.Join(dir, e.Name()))
	}
	if len(files) == 0 {
		return "", nil, errors.New("no licence file")
	}
	if len(ids) == 0 {
		return "unknown", files, nil
	}
	return strings.Join(ids, " AND "), files, nil
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

var spaces = regexp.MustCompile(`\s+`)

// classify names the licence of a licence file's text by its distinctive sentences.
func classify(text string) string {
	t := spaces.ReplaceAllString(strings.ToLower(text), " ")
	has := func(s ...string) bool {
		for _, x := range s {
			if !strings.Contains(t, x) {
				return false
			}
		}
		return true
	}
	switch {
	case has("gnu affero general public license"):
		return "AGPL"
	case has("gnu lesser general public license"):
		return "LGPL"
	case has("gnu general public license"):
		return "GPL"
	case has("apache license", "version 2.0"):
		return "Apache-2.0"
	case has("mozilla public license", "2.0"):
		return "MPL-2.0"
	case has("permission is hereby granted, free of charge"):
		return "MIT"
	case has("permission to use, copy, modify, and/or distribute this software for any purpose"),
		has("permission to use, copy, modify, and distribute this software for any purpose with or without fee"):
		return "ISC"
	case has("redistribution and use in source and binary forms") &&
		(has("neither the name") || has("names of its contributors") || has("name of the copyright holder")):
		return "BSD-3-Clause"
	case has("redistribution and use in source and binary forms"):
		return "BSD-2-Clause"
	case has("this is free and unencumbered software released into the public domain"):
		return "Unlicense"
	case has("sil open font license", "version 1.1"):
		return "OFL-1.1"
	}
	return ""
}

// lockPackage is one entry of package-lock.json's "packages".
type lockPackage struct {
	Version     string `json:"version"`
	License     any    `json:"license"`
	Dev         bool   `json:"dev"`
	DevOptional bool   `json:"devOptional"`
}

// npmPackages answers the web app's production dependency tree from package-lock.json, with the
// licence each package's own package.json declares; plus the workbox runtime modules that
// vite-plugin-pwa compiles into the service worker (dev dependencies whose code ships).
func npmPackages(root string) ([]pkg, error) {
	b, err := os.ReadFile(filepath.Join(root, "package-lock.json"))
	if err != nil {
		return nil, err
	}
	var lock struct {
		Packages map[string]lockPackage `json:"packages"`
	}
	if err := json.Unmarshal(b, &lock); err != nil {
		return nil, fmt.Errorf("package-lock.json: %w", err)
	}
	var pkgs []pkg
	for key, lp := range lock.Packages {
		if key == "" {
			continue
		}
		name := key[strings.LastIndex(key, "node_modules/")+len("node_modules/"):]
		note := ""
		if lp.Dev || lp.DevOptional {
			if key != "node_modules/"+name || !strings.HasPrefix(name, "workbox-") || name == "workbox-build" {
				continue
			}
			note = "compiled into the service worker by vite-plugin-pwa"
		}
		lic, src := npmLicense(filepath.Join(root, key, "package.json"))
		if lic == "" {
			lic, src = licenseString(lp.License), "package-lock.json"
		}
		var files []string
		if entries, err := os.ReadDir(filepath.Join(root, key)); err == nil {
			for _, e := range entries {
				if !e.IsDir() && licenseFile.MatchString(e.Name()) {
					files = append(files, filepath.Join(root, key, e.Name()))
				}
			}
		}
		pkgs = append(pkgs, pkg{Name: name, Version: lp.Version, License: lic, Source: src, Note: note, Files: files})
	}
	sort.Slice(pkgs, func(i, j int) bool {
		if pkgs[i].Name != pkgs[j].Name {
			return pkgs[i].Name < pkgs[j].Name
		}
		return pkgs[i].Version < pkgs[j].Version
	})
	return pkgs, nil
}

// npmLicense reads the license field of an installed package's package.json.
func npmLicense(path string) (string, string) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", ""
	}
	var p struct {
		License  any   `json:"license"`
		Licenses []any `json:"licenses"`
	}
	if json.Unmarshal(b, &p) != nil {
		return "", ""
	}
	if s := licenseString(p.License); s != "" {
		return s, "package.json"
	}
	var ids []string
	for _, l := range p.Licenses {
		if s := licenseString(l); s != "" {
			ids = append(ids, s)
		}
	}
	return strings.Join(ids, " OR "), "package.json"
}

// licenseString reads a license field: an SPDX expression, or the old {"type": …} object.
func licenseString(v any) string {
	switch l := v.(type) {
	case string:
		return l
	case map[string]any:
		if s, ok := l["type"].(string); ok {
			return s
		}
	}
	return ""
}

// isCompatible evaluates a simple SPDX expression: any side of an OR, every side of an AND.
func isCompatible(expr string) bool {
	expr = strings.TrimSpace(strings.Trim(strings.TrimSpace(expr), "()"))
	if expr == "" {
		return false
	}
	if strings.Contains(expr, " OR ") {
		for _, alt := range strings.Split(expr, " OR ") {
			if isCompatible(alt) {
				return true
			}
		}
		return false
	}
	for _, part := range strings.Split(expr, " AND ") {
		if _, ok := compatible[strings.Trim(strings.TrimSpace(part), "()")]; !ok {
			return false
		}
	}
	return true
}

// writeNotices writes every dependency's licence text, as binary redistribution asks.
func writeNotices(w io.Writer, goPkgs, npmPkgs []pkg) error {
	fmt.Fprintln(w, "Kardan is under the MIT licence (LICENSE). It includes the following software, under")
	fmt.Fprintln(w, "the licences below (generated by tools/licenses -notices).")
	for _, p := range append(append([]pkg{}, goPkgs...), npmPkgs...) {
		fmt.Fprintf(w, "\n%s\n%s %s (%s)\n%s\n", strings.Repeat("=", 78), p.Name, p.Version, p.License, strings.Repeat("=", 78))
		if len(p.Files) == 0 {
			fmt.Fprintf(w, "\n(no licence file in the package; its package.json declares %s)\n", p.License)
		}
		for _, f := range p.Files {
			b, err := os.ReadFile(f)
			if err != nil {
				return err
			}
			fmt.Fprintf(w, "\n%s\n", strings.TrimSpace(string(b)))
		}
	}
	return nil
}

func write(w io.Writer, goPkgs, npmPkgs []pkg) {
	fmt.Fprint(w, `# Licences of Kardan's dependencies

<!-- GENERATED by tools/licenses (make licenses) from go list and webui's package-lock.json and
node_modules: do not edit by hand. -->

Kardan is under the MIT licence (see LICENSE). Below is every Go module linked into the kardan
binary and every npm package whose code is in the embedded web app, with the licence its own
files declare. All are compatible with distributing Kardan under MIT: the permissive licences
(MIT, BSD, Apache-2.0, ISC) ask that their notices travel with binary copies, so each release
tarball carries THIRD_PARTY_NOTICES with every licence text (tools/licenses -notices); the
Vazirmatn font's OFL-1.1 allows bundling it with any software (the server also embeds four of
its WOFF files, from @fontsource/vazirmatn, to draw share cards: sharecard/fonts, licence beside
them). go-text/typesetting is offered under Unlicense OR BSD-3-Clause; BSD-3-Clause is listed. Test-only and build-only dependencies (vite, vitest,
playwright, lib/pq for the benchmark) are not in the binary and not listed.

`)
	section := func(title string, pkgs []pkg) {
		count := map[string]int{}
		for _, p := range pkgs {
			count[p.License]++
		}
		var ids []string
		for id := range count {
			ids = append(ids, id)
		}
		sort.Strings(ids)
		var summary []string
		for _, id := range ids {
			summary = append(summary, fmt.Sprintf("%s %d", id, count[id]))
		}
		fmt.Fprintf(w, "## %s (%d: %s)\n\n", title, len(pkgs), strings.Join(summary, ", "))
		fmt.Fprintln(w, "| package | version | licence | read from | note |")
		fmt.Fprintln(w, "|---|---|---|---|---|")
		for _, p := range pkgs {
			fmt.Fprintf(w, "| %s | %s | %s | %s | %s |\n", p.Name, p.Version, p.License, p.Source, p.Note)
		}
		fmt.Fprintln(w)
	}
	section("Go modules in the binary", goPkgs)
	section("npm packages in the web app", npmPkgs)
}
