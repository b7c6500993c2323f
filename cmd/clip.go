package cmd

import "strings"

// clipWidth is about the longest piece of input an error message repeats.
const clipWidth = 80

// clipInput cuts text taken from the user (a position, a move list, a
// line of stdin) to about clipWidth characters, marking the cut with "…",
// so that an error about a 100 kB argument stays one short line.
func clipInput(s string) string {
	r := []rune(s)
	if len(r) <= clipWidth {
		return s
	}
	return string(r[:clipWidth-1]) + "…"
}

// clipMessage cuts every run of text without spaces longer than
// clipWidth in an error message (echoed input, as a message quotes it)
// with clipInput, leaving the words around it.
func clipMessage(msg string) string {
	if len(msg) <= clipWidth {
		return msg
	}
	words := strings.Split(msg, " ")
	for i, w := range words {
		words[i] = clipInput(w)
	}
	return strings.Join(words, " ")
}

// ErrorLine is the one line main prints for an error: line breaks inside
// it (some library messages have them) become spaces, and long echoed
// input is cut.
func ErrorLine(err error) string {
	return clipMessage(strings.Join(strings.Fields(err.Error()), " "))
}
