module github.com/toolnorm/toolnorm/mcp

go 1.26.0

require github.com/toolnorm/toolnorm v0.0.0

replace github.com/toolnorm/toolnorm => ../
