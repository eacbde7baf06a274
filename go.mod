module github.com/winnow-go/winnow

go 1.26.8

require (
	github.com/cespare/xxhash/v2 v2.3.0
	github.com/gogs/chardet v0.0.0-20211120154057-b7413eaefb8f
	github.com/spf13/cobra v1.10.2
	golang.org/x/net v0.62.0
	golang.org/x/term v0.47.0
	golang.org/x/text v0.43.0
)

require (
	github.com/inconshreveable/mousetrap v1.1.0 // indirect
	github.com/spf13/pflag v1.0.9 // indirect
	golang.org/x/sys v0.49.0 // indirect
)
