module github.com/ccvet/ccvet

go 1.25.0

require (
	github.com/fatih/color v1.19.0
	github.com/mattn/go-isatty v0.0.20
	github.com/santhosh-tekuri/jsonschema/v5 v5.3.1
	github.com/spf13/pflag v1.0.10
	go.yaml.in/yaml/v3 v3.0.6
	golang.org/x/sys v0.42.0
)

require github.com/mattn/go-colorable v0.1.14 // indirect
