//go:build !race

package testsize

const race = false
