module example.com/blindnorm

go 1.26.0

require github.com/toolnorm/toolnorm v0.0.0

replace github.com/toolnorm/toolnorm => ../../..

require (
	github.com/dlclark/regexp2/v2 v2.13.0
	golang.org/x/net v0.62.0
)
