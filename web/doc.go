// Package web is the server behind `mancala serve`: a board page, an
// analysis page and a JSON API (notation.md, "HTTP API") over an Oracle,
// the answering layer.
//
// # Pages and API
//
//	GET  /                 the board page (assets/board.html)
//	GET  /analyze          the analysis page (assets/analyze.html)
//	GET  /assets/...       scripts and styles, embedded in the binary
//	GET  /api/variants     the variants, every kalah size and rule set too: name, pits, seeds, sowing direction, stores, rule set
//	GET  /api/solve?position=POS[&time=1s][&all=1]
//	GET  /api/query?position=POS
//	GET  /api/play?position=POS&moves=3,5,pass,1
//	GET  /api/move?position=POS&moves=3,5,1[&time=500ms]   the engine's move (Mover)
//	POST /api/analyze      body: games in the analyze format, text/plain
//
// Answers are the commands' --json objects. A request the Oracle rejects as
// malformed (a BadRequest error) gets status 400 and {"error": "..."}
// naming the bad part; a query for a position the tablebase does not hold
// 404; an overloaded server 503, as is a search whose request ended (its
// deadline, or the client leaving) while it waited for another search of
// its variant.
//
// # The answers
//
// The handlers call an Oracle, a small interface of this package (Solve,
// Lookup, Query, Play, Analyze, Variants returning JSON-ready values), so
// that they can be tested over a fake. Answers is the real one, one
// oracle.Oracle, which decides which tablebase serves each variant: the
// tablebase on disk opened read-only once and shared (a variant it lacks is
// searched), the in-memory endgame tablebases built once (Warm, oracle's,
// builds them at start), one solver a variant. Nothing here but HTTP.
//
// # Safe to leave running
//
// Everything the pages need is embedded (no CDN, no web fonts), and no
// request names a file. Request bodies, position strings, move lists and
// games are bounded (Limits). Every request runs under a deadline
// (Config.Time, capped at MaxTime); searches (solve, analyze) take a slot
// of a weighted semaphore (golang.org/x/sync/semaphore) of
// Config.Searches slots, so a burst queues for at most Config.QueueWait
// and then gets 503 rather than running unbounded searches at once.
// Searches of one variant also queue for its one solver (oracle's doc,
// "Concurrency"), each for at most its request's deadline.
// Look-ups, what a tablebase answers at once (query, and a solve that
// Oracle.Lookup answers), take a slot of a second semaphore
// (Config.Lookups) instead, so that they never queue behind a search.
// Play is cheap and needs no slot. At most Config.MaxConns connections
// are open (conns.go): one more closes the one idle longest. Responses carry a Content-Security-Policy
// without inline scripts or styles, X-Content-Type-Options, X-Frame-Options
// and frame-ancestors, and Referrer-Policy. When the server listens on a
// loopback address it answers only requests whose Host is a loopback name,
// which defeats DNS rebinding. Serve shuts down gracefully when its context
// ends (SIGINT, SIGTERM in `mancala serve`).
package web
