package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

func TestClassify(t *testing.T) {
	cases := map[string]string{
		"Permission is hereby granted, free of charge, to any person obtaining a copy":                         "MIT",
		"Apache License\n   Version 2.0, January 2004":                                                         "Apache-2.0",
		"Redistribution and use in source and binary forms ... Neither the name of Google Inc.":                "BSD-3-Clause",
		"Redistribution and use in source and binary forms, with or without modification":                      "BSD-2-Clause",
		"Permission to use, copy, modify, and/or distribute this software for any purpose with or without fee": "ISC",
		"GNU GENERAL PUBLIC LICENSE Version 3":                                                                 "GPL",
		"GNU AFFERO GENERAL PUBLIC LICENSE":                                                                    "AGPL",
		"Mozilla Public License Version 2.0":                                                                   "MPL-2.0",
		"something nobody wrote before":                                                                        "",
	}
	for text, want := range cases {
		if got := classify(text); got != want {
			t.Errorf("%q: %q, want %q", text, got, want)
		}
	}
}

func TestIsCompatible(t *testing.T) {
	for expr, want := range map[string]bool{
		"MIT": true, "(MIT OR GPL-3.0)": true, "GPL-3.0": false, "MIT AND GPL": false, "Apache-2.0 AND MIT": true,
		"unknown": false, "": false, "(BSD-3-Clause OR Apache-2.0)": true, "LGPL": false, "OFL-1.1": true,
	} {
		if got := isCompatible(expr); got != want {
			t.Errorf("%q: %v, want %v", expr, got, want)
		}
	}
}

// TestLicensesDocIsCurrent regenerates the list and compares it with docs/licenses.md, so a
// dependency change without `make licenses` fails here.
func TestLicensesDocIsCurrent(t *testing.T) {
	root, _ := filepath.Abs("../..")
	if _, err := os.Stat(filepath.Join(root, "webui", "node_modules")); err != nil {
		t.Skip("webui/node_modules is not installed")
	}
	t.Chdir(root)
	goPkgs, err := goModules()
	if err != nil {
		t.Fatal(err)
	}
	npmPkgs, err := npmPackages("webui")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range append(goPkgs, npmPkgs...) {
		if !isCompatible(p.License) {
			t.Errorf("%s %s: licence %q", p.Name, p.Version, p.License)
		}
	}
	var b bytes.Buffer
	write(&b, goPkgs, npmPkgs)
	doc, err := os.ReadFile(filepath.Join(root, "docs", "licenses.md"))
	if err != nil {
		t.Fatal(err)
	}
	if string(doc) != b.String() {
		t.Fatal("docs/licenses.md is out of date: run make licenses")
	}
}
