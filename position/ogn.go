package position

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Aualé, the oware GUI, saves a game as an "Oware Game Notation" file
// (.ogn), shaped like chess's PGN: tag lines `[Name "value"]` (a `"` or
// `\` in a value written `\"`, `\\`), first the roster Variant ("Oware
// Abapa"), Event, Site, Date, Round, South, North and Result (the final
// score, South's first, "S-N", or "*" while the game goes on), each "?"
// when unknown, then any other tags in name order, among them FEN (the
// engine dialect's fen of the start, when it is not the usual one). A
// blank line, then the moves: a move number "1." before every second
// move, each move the mover's letter (A..F South, a..f North) followed by
// "+N" when it took N seeds, comments in braces after a move, variations
// in parentheses, and the result again when the game is over; lines are
// wrapped before 80 characters. Aualé plays oware with each row's seeds
// going to its owner when a position repeats: DialectVariant.

// OGNTag is one tag of an Aualé file: its name and its value, unescaped.
type OGNTag struct{ Name, Value string }

// Record is a game read from another program's file: where it starts,
// its moves as Game.Play takes them, and the file's tags.
type Record struct {
	Start Setup
	Moves []int
	Tags  []OGNTag
}

// Tag returns the value of the record's tag name, "" when it has none or
// it is "?" (unknown).
func (r Record) Tag(name string) string {
	for _, t := range r.Tags {
		if t.Name == name && t.Value != "?" {
			return t.Value
		}
	}
	return ""
}

// ognRuleset is the Variant tag Aualé writes (its only game).
const ognRuleset = "Oware Abapa"

// ognRoster is the tags Aualé writes first, in this order.
var ognRoster = []string{"Variant", "Event", "Site", "Date", "Round", "South", "North", "Result"}

// LooksLikeOGN reports whether text starts (after blank space) as an
// Aualé file does, with a tag line.
func LooksLikeOGN(text string) bool {
	return strings.HasPrefix(strings.TrimSpace(text), "[")
}

// ParseOGN reads an Aualé file: its tags, the start (the FEN tag, else
// the usual start) and its moves, replayed from the start under
// DialectVariant's rules, so that each letter is checked against the
// side to move and each move is legal. Move numbers, "+N" capture marks,
// the result, comments and variations are skipped, as Aualé skips them.
// The error names the line and the bad part: a tag that does not parse,
// a Variant other than Oware Abapa, a bad FEN, a word that is not a move,
// or an illegal move with its number.
func ParseOGN(text string) (Record, error) {
	v, err := Lookup(DialectVariant)
	if err != nil {
		return Record{}, err
	}
	rec := Record{Start: Setup{Variant: v, Position: v.Start(), CapturesKnown: true}}
	rest, line, err := readOGNTags(text, &rec)
	if err != nil {
		return Record{}, err
	}
	if variant := rec.Tag("Variant"); variant != "" && !strings.EqualFold(variant, ognRuleset) {
		return Record{}, fmt.Errorf("Variant tag %q: Aualé's files hold %s games", variant, ognRuleset)
	}
	if fen := rec.Tag("FEN"); fen != "" {
		if rec.Start, err = ParseFEN(v, fen); err != nil {
			return Record{}, fmt.Errorf("FEN tag: %w", err)
		}
	}
	g := NewGame(rec.Start)
	err = eachOGNWord(rest, line, func(line int, word string) error {
		letters, _, _ := strings.Cut(word, "+")
		switch {
		case isMoveNumber(word), word == "*", isScore(word):
			return nil
		case !isLetterRun(letters):
			return fmt.Errorf("line %d: %q is not a move (A..F, a..f, with +N for seeds taken), a move number or a result", line, word)
		}
		for i := range letters {
			pit, err := g.Variant.LetterPit(g.Position, letters[i])
			if err == nil {
				_, err = g.Play(pit)
			}
			if err != nil {
				return fmt.Errorf("line %d: move %d, %s: %w", line, len(rec.Moves)+1, letters[i:i+1], err)
			}
			rec.Moves = append(rec.Moves, pit)
		}
		return nil
	})
	return rec, err
}

// readOGNTags reads the tag lines at the start of text into rec and
// returns the text after them and the line it starts on.
func readOGNTags(text string, rec *Record) (string, int, error) {
	line := 1
	for {
		trimmed := strings.TrimLeft(text, " \t\r\n")
		line += strings.Count(text[:len(text)-len(trimmed)], "\n")
		text = trimmed
		if !strings.HasPrefix(text, "[") {
			return text, line, nil
		}
		name, value, n, err := readOGNTag(text)
		if err != nil {
			return "", 0, fmt.Errorf("line %d: %w", line, err)
		}
		rec.Tags = append(rec.Tags, OGNTag{Name: name, Value: value})
		text = text[n:]
	}
}

// readOGNTag reads one `[Name "value"]` from the start of s and returns
// how many bytes it took.
func readOGNTag(s string) (name, value string, n int, err error) {
	i := 1
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	start := i
	for i < len(s) && (s[i] == '_' || s[i] >= '0' && s[i] <= '9' || s[i]|0x20 >= 'a' && s[i]|0x20 <= 'z') {
		i++
	}
	name = s[start:i]
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	if name == "" || i >= len(s) || s[i] != '"' {
		return "", "", 0, fmt.Errorf("tag %q is not [Name \"value\"]", firstLine(s))
	}
	var b strings.Builder
	for i++; ; i++ {
		if i >= len(s) || s[i] == '\n' {
			return "", "", 0, fmt.Errorf("tag %q: the value has no closing quote", firstLine(s))
		}
		if s[i] == '\\' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\') {
			i++
		} else if s[i] == '"' {
			break
		}
		b.WriteByte(s[i])
	}
	for i++; i < len(s) && (s[i] == ' ' || s[i] == '\t'); i++ {
	}
	if i >= len(s) || s[i] != ']' {
		return "", "", 0, fmt.Errorf("tag %q is not [Name \"value\"]", firstLine(s))
	}
	return name, b.String(), i + 1, nil
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return strings.TrimSpace(s)
}

// eachOGNWord calls f with each word of an Aualé file's move text (which
// starts on line first), skipping comments {...} and variations (...).
func eachOGNWord(text string, first int, f func(line int, word string) error) error {
	line, depth := first, 0
	var word strings.Builder
	flush := func() error {
		if word.Len() == 0 {
			return nil
		}
		w := word.String()
		word.Reset()
		return f(line, w)
	}
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c == '{':
			if err := flush(); err != nil {
				return err
			}
			end := strings.IndexByte(text[i:], '}')
			if end < 0 {
				return fmt.Errorf("line %d: a comment \"{\" is not closed", line)
			}
			line += strings.Count(text[i:i+end], "\n")
			i += end
		case c == '(':
			if err := flush(); err != nil {
				return err
			}
			depth++
		case c == ')' && depth > 0:
			depth--
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			if err := flush(); err != nil {
				return err
			}
			if c == '\n' {
				line++
			}
		case depth == 0:
			word.WriteByte(c)
		}
	}
	return flush()
}

// isMoveNumber reports whether w is a move number: digits and a dot
// ("12." or "12...").
func isMoveNumber(w string) bool {
	digits := strings.TrimRight(w, ".")
	_, err := strconv.Atoi(digits)
	return err == nil && len(digits) < len(w)
}

// isScore reports whether w is a result "S-N".
func isScore(w string) bool {
	a, b, ok := strings.Cut(w, "-")
	_, errA := strconv.Atoi(a)
	_, errB := strconv.Atoi(b)
	return ok && errA == nil && errB == nil
}

// OGNResult is the Result tag Aualé writes for a game: "*" while it goes
// on, else the final score "S-N". Aualé ends a game as oware-own does
// but, when a player has taken more than 24 seeds, leaves the seeds on the
// board to nobody; the score is then the captures alone.
func OGNResult(g *Game) string {
	switch {
	case !g.Over:
		return "*"
	case g.End == EndStopAt:
		return fmt.Sprintf("%d-%d", g.Captured[0], g.Captured[1])
	}
	return fmt.Sprintf("%d-%d", g.Final[0], g.Final[1])
}

// FormatOGN writes game g (played from its start with every end rule, as
// NewGame and Play do) as an Aualé file, with the roster tags from tags
// (a missing one written "?"; Variant and Result are always the game's)
// and any other tags after them in name order; a FEN tag is added when
// the game does not start from the usual start. Each move is its letter,
// "+N" when the mover's store grew by N (on the last move, by the seeds
// the end gave the mover too, as Aualé counts). Only games of oware's
// rules are Aualé's: another variant is an error.
func FormatOGN(g *Game, tags []OGNTag) (string, error) {
	if g.Variant.Name != "oware-own" && g.Variant.Name != "oware" {
		return "", fmt.Errorf("%s: Aualé's files hold only oware (oware-own, or oware)", g.Variant.Name)
	}
	values := map[string]string{}
	for _, t := range tags {
		values[t.Name] = t.Value
	}
	start := g.startSetup()
	values["Variant"] = ognRuleset
	result := OGNResult(g)
	values["Result"] = result
	delete(values, "FEN")
	if !(start.Position == start.Variant.Start() && start.Captured == [2]int{}) {
		values["FEN"] = FormatFEN(start)
	}
	var b strings.Builder
	for _, name := range ognRoster {
		value, ok := values[name]
		if !ok || value == "" {
			value = "?"
		}
		fmt.Fprintf(&b, "[%s \"%s\"]\n", name, ognEscape(value))
		delete(values, name)
	}
	var others []string
	for name := range values {
		others = append(others, name)
	}
	sort.Strings(others)
	for _, name := range others {
		fmt.Fprintf(&b, "[%s \"%s\"]\n", name, ognEscape(values[name]))
	}
	if len(g.Line) == 0 {
		return b.String(), nil
	}
	var words []string
	for i, ply := range g.Line {
		if i%2 == 0 {
			words = append(words, strconv.Itoa(i/2+1)+".")
		}
		w := MoveLetter(ply.Before.Position, int(ply.Move.Pit))
		gain := int(ply.Move.Captured)
		if i == len(g.Line)-1 && g.Over && g.End != EndStopAt {
			mover := ply.Player() - 1
			gain = g.Final[mover] - ply.Before.Captured[mover]
		}
		if gain > 0 {
			w += "+" + strconv.Itoa(gain)
		}
		words = append(words, w)
	}
	if g.Over {
		words = append(words, result)
	}
	b.WriteByte('\n')
	line := words[0]
	for _, w := range words[1:] {
		if len(line)+1+len(w) < 80 {
			line += " " + w
			continue
		}
		b.WriteString(line + "\n")
		line = w
	}
	b.WriteString(line + "\n")
	return b.String(), nil
}

// startSetup is the setup the game started from.
func (g *Game) startSetup() Setup {
	if len(g.Line) > 0 {
		return g.Line[0].Before
	}
	return g.Setup
}

func ognEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s)
}
