// The client: starts `catandsl lsp` (the command is the setting catandsl.server.command)
// over stdio for .catan files. All the language knowledge is in the server.
"use strict";
const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const [command, ...args] = vscode.workspace.getConfiguration("catandsl").get("server.command");
  const serverOptions = { command, args, transport: TransportKind.stdio };
  const clientOptions = { documentSelector: [{ scheme: "file", language: "catan" }] };
  client = new LanguageClient("catandsl", "catandsl", serverOptions, clientOptions);
  client.start();
  context.subscriptions.push({ dispose: () => client && client.stop() });
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
