package web

import (
	"embed"
	"io/fs"
	"net/http"
	"strings"
	"unicode/utf8"
)

// assets holds the pages, scripts and styles; nothing is loaded from
// outside the binary.
//
//go:embed assets
var assets embed.FS

// servePage serves one embedded HTML page.
func servePage(name string) http.HandlerFunc {
	page, err := assets.ReadFile("assets/" + name)
	if err != nil {
		panic("web: missing embedded page " + name)
	}
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		_, _ = w.Write(page)
	}
}

// assetHandler serves the embedded files under /assets/, without
// directory listings; a path that names no file is 404.
func assetHandler() http.Handler {
	sub, err := fs.Sub(assets, "assets")
	if err != nil {
		panic(err)
	}
	files := http.StripPrefix("/assets/", http.FileServer(http.FS(sub)))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// A name fs.Open cannot take (invalid UTF-8 such as %ff) is a
		// missing file: FileServer would answer 500 for its error.
		name := strings.TrimPrefix(r.URL.Path, "/assets/")
		if strings.HasSuffix(r.URL.Path, "/") || !utf8.ValidString(name) || !fs.ValidPath(name) {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Cache-Control", "no-cache")
		files.ServeHTTP(w, r)
	})
}
