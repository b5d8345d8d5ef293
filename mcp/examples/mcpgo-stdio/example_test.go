package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
)

// The server over a pair of pipes, as over standard input and output: a
// client writes JSON-RPC lines, the server answers with lines.
func Example() {
	clientToServer, serverIn := io.Pipe()
	serverOut, serverToClient := io.Pipe()
	go serve(context.Background(), newServer(slog.New(slog.DiscardHandler)), clientToServer, serverToClient)

	answers := bufio.NewScanner(serverOut)
	send := func(line string) {
		if _, err := io.WriteString(serverIn, line+"\n"); err != nil {
			panic(err)
		}
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"example","version":"0"}}}`)
	answers.Scan()
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	// The tags as a string holding the array, the title escaped twice.
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"tag_note","arguments":{"tags":"[\"home\",\"diy\"]","title":"Ember &amp;amp; Oak"}}}`)
	for answers.Scan() {
		var answer struct {
			ID     int
			Result struct {
				IsError bool
				Content []struct{ Text string }
			}
		}
		if err := json.Unmarshal(answers.Bytes(), &answer); err != nil || answer.ID != 2 {
			continue // a notification
		}
		fmt.Println(answer.Result.IsError, answer.Result.Content[0].Text)
		break
	}
	serverIn.Close()
	// Output:
	// false tagged "Ember & Oak" with home, diy
}
