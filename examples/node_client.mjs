// Plays one full random game of a catandsl scenario through `catandsl engine`, the
// JSON-lines protocol (docs/embedding.md, docs/protocol/), from Node.js 18+:
//
//   node examples/node_client.mjs [SCENARIO] [SEED]
//
// SCENARIO is a shipped scenario's name or a .catan path (default: base). The engine is
// started as `$CATANDSL_PYTHON -m catandsl engine` (default python3). Prints one JSON line:
// the game's end as `status` reports it, and how many requests it took.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

const scenario = process.argv[2] ?? "base";
const seed = Number(process.argv[3] ?? 1);
const python = process.env.CATANDSL_PYTHON ?? "python3";

const engine = spawn(python, ["-m", "catandsl", "engine"], { stdio: ["pipe", "pipe", "inherit"] });
const replies = createInterface({ input: engine.stdout });
const waiting = new Map();
let nextId = 1;
replies.on("line", (line) => {
  const reply = JSON.parse(line);
  const done = waiting.get(reply.id);
  waiting.delete(reply.id);
  done(reply);
});

// One request: resolves to the reply's result, rejects with its typed error.
function call(message) {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    waiting.set(id, (reply) => (reply.ok ? resolve(reply.result) : reject(reply.error)));
    engine.stdin.write(JSON.stringify({ id, ...message }) + "\n");
  });
}

// A small seeded generator (mulberry32), so the same seed plays the same game.
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function main() {
  const rand = random(seed);
  const { state } = await call({ call: "new_game", scenario, players: 3, seed });
  // a bad message is answered with a typed error, and the session goes on
  const refused = await call({ call: "apply", state, action: -5 }).catch((error) => error.code);
  for (;;) {
    const legal = await call({ call: "legal_actions", state });
    if (legal.actions.length === 0) break; // the game is over
    const action = legal.chance.length > 0
      ? (await call({ call: "sample_chance", state })).action
      : legal.actions[Math.floor(rand() * legal.actions.length)];
    const after = await call({ call: "apply", state, action });
    if (after.terminal) break;
  }
  const status = await call({ call: "status", state });
  await call({ call: "quit" });
  console.log(JSON.stringify({ refused, requests: nextId - 1, ...status }));
}

main().catch((error) => {
  console.error("node_client:", JSON.stringify(error));
  engine.kill();
  process.exit(1);
});
