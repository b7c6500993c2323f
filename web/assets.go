package web

import (
	"embed"
	"io/fs"
	"net/http"
	"strings"
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
// directory listings.
func assetHandler() http.Handler {
	sub, err := fs.Sub(assets, "assets")
	if err != nil {
		panic(err)
	}
	files := http.StripPrefix("/assets/", http.FileServer(http.FS(sub)))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/") {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Cache-Control", "no-cache")
		files.ServeHTTP(w, r)
	})
}
