package main

import (
	"github.com/spf13/cobra"

	"github.com/winnow-go/winnow/internal/version"
)

func newRoot() *cobra.Command {
	root := &cobra.Command{
		Use:           "winnow",
		Short:         "Clean crawled web pages: main content, site boilerplate, near-duplicates",
		SilenceUsage:  true,
		SilenceErrors: true,
		// --version prints version.String(), one line: the module
		// version, the revision, modified or not, and the build times.
		Version: version.String(),
	}
	root.SetVersionTemplate("{{.Version}}\n")
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return &usageError{err} })
	root.AddCommand(newExtractCmd(), newRunCmd(), newEvalCmd(), newDedupCmd(), newIndexCmd(), newRulesCmd(), newServeCmd())
	return root
}

// exactArgs is cobra.ExactArgs with a usage error.
func exactArgs(n int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != n {
			return usagef("%s: want %d argument(s), got %d (see --help)", cmd.CommandPath(), n, len(args))
		}
		return nil
	}
}
