package cmd

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/mancala-solver/mancala/position"
)

// addCompletion makes variant names tab-complete (with `mancala
// completion SHELL`, which --help lists): the first argument of every
// command whose usage starts with POS or VARIANT, and every --variant
// flag. It walks the whole tree, so commands added later get it too.
func addCompletion(root *cobra.Command) {
	for _, c := range root.Commands() {
		if c.ValidArgsFunction == nil && len(c.ValidArgs) == 0 && takesVariantFirst(c) {
			c.ValidArgsFunction = completeVariantArg
		}
		if c.Flags().Lookup("variant") != nil {
			_ = c.RegisterFlagCompletionFunc("variant", completeVariantFlag)
		}
		addCompletion(c)
	}
}

// takesVariantFirst reports whether c's first argument is a position or a
// variant name, as its usage line says.
func takesVariantFirst(c *cobra.Command) bool {
	_, rest, _ := strings.Cut(c.Use, " ")
	return strings.HasPrefix(rest, "POS") || strings.HasPrefix(rest, "VARIANT")
}

// completeVariantArg offers the variant names for the first argument only.
func completeVariantArg(_ *cobra.Command, args []string, prefix string) ([]string, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	return variantsWithPrefix(prefix), cobra.ShellCompDirectiveNoFileComp
}

func completeVariantFlag(_ *cobra.Command, _ []string, prefix string) ([]string, cobra.ShellCompDirective) {
	return variantsWithPrefix(prefix), cobra.ShellCompDirectiveNoFileComp
}

// variantsWithPrefix lists the variant names that start with prefix
// (case-insensitive, as Lookup reads them). The kalah sizes (kalah-MxN,
// kalah-std-MxN) are offered once the prefix reaches "kalah-", so that a
// bare Tab lists the games rather than 72 kalah sizes.
func variantsWithPrefix(prefix string) []string {
	prefix = strings.ToLower(prefix)
	candidates := position.Names()
	if strings.HasPrefix(prefix, position.KalahName+"-") {
		for _, v := range position.KalahVariants() {
			if v.Name != position.KalahName && v.Name != position.KalahStdName {
				candidates = append(candidates, v.Name)
			}
		}
	}
	var names []string
	for _, n := range candidates {
		if strings.HasPrefix(n, prefix) {
			names = append(names, n)
		}
	}
	return names
}
