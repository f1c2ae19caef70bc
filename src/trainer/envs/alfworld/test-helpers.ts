/**
 * A scripted ALFWorld server for tests (loopback only, started by the test): small household games that
 * speak the protocol of `protocol.ts` with ALFWorld's command forms (`go to`, `open`, `take … from`,
 * `move … to`), so episodes, the step limit and won/lost are tested without the Python simulator.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeGame {
  /** The goal sentence ("put some apple in fridge"). */
  goal: string;
  /** The object to carry and the receptacle it must end in. */
  object: string;
  target: string;
  /** What each place holds at the start. */
  places: Record<string, string[]>;
  /** Places that start closed (they must be opened before taking from or moving into them). */
  closed?: string[];
}

interface EpisodeState {
  game: FakeGame;
  at: string;
  holding: string;
  open: Set<string>;
  contents: Map<string, string[]>;
  won: boolean;
}

export interface FakeServer {
  url: string;
  /** Every request body received, by route, in order. */
  requests: Array<{ route: string; body: Record<string, unknown> }>;
  close(): Promise<void>;
}

function admissible(s: EpisodeState): string[] {
  const cmds = ['look', 'inventory'];
  for (const p of s.contents.keys()) if (p !== s.at) cmds.push(`go to ${p}`);
  if (s.at !== '') {
    const isOpen = !(s.game.closed ?? []).includes(s.at) || s.open.has(s.at);
    if (!isOpen) cmds.push(`open ${s.at}`);
    else if (s.holding === '')
      for (const o of s.contents.get(s.at) ?? []) cmds.push(`take ${o} from ${s.at}`);
    else cmds.push(`move ${s.holding} to ${s.at}`);
  }
  return [...cmds, 'help'];
}

const seen = (things: string[]): string =>
  things.length === 0 ? 'nothing' : things.map((t) => `a ${t}`).join(', ');

function act(s: EpisodeState, action: string): string {
  const isOpen = (p: string): boolean => !(s.game.closed ?? []).includes(p) || s.open.has(p);
  let m: RegExpExecArray | null;
  if (action === 'look')
    return s.at === '' ? 'You are in the middle of a room.' : `You are facing the ${s.at}.`;
  if (action === 'inventory')
    return s.holding === '' ? 'You are not carrying anything.' : `You are carrying: a ${s.holding}.`;
  if ((m = /^go to (.+)$/.exec(action)) && s.contents.has(m[1] ?? '')) {
    s.at = m[1] ?? '';
    return isOpen(s.at)
      ? `You arrive at ${s.at}. On the ${s.at}, you see ${seen(s.contents.get(s.at) ?? [])}.`
      : `You arrive at ${s.at}. The ${s.at} is closed.`;
  }
  if ((m = /^open (.+)$/.exec(action)) && m[1] === s.at && !isOpen(s.at)) {
    s.open.add(s.at);
    return `You open the ${s.at}. The ${s.at} is open. In it, you see ${seen(s.contents.get(s.at) ?? [])}.`;
  }
  if ((m = /^take (.+) from (.+)$/.exec(action)) && m[2] === s.at && isOpen(s.at) && s.holding === '') {
    const here = s.contents.get(s.at) ?? [];
    if (here.includes(m[1] ?? '')) {
      s.contents.set(
        s.at,
        here.filter((o) => o !== m?.[1]),
      );
      s.holding = m[1] ?? '';
      return `You pick up the ${s.holding} from the ${s.at}.`;
    }
  }
  if ((m = /^move (.+) to (.+)$/.exec(action)) && m[1] === s.holding && m[2] === s.at && isOpen(s.at)) {
    s.contents.get(s.at)?.push(s.holding);
    if (s.holding === s.game.object && s.at === s.game.target) s.won = true;
    const moved = s.holding;
    s.holding = '';
    return `You move the ${moved} to the ${s.at}.`;
  }
  return 'Nothing happens.';
}

export async function startFakeAlfworld(games: Record<string, FakeGame>): Promise<FakeServer> {
  const episodes = new Map<string, EpisodeState>();
  const requests: FakeServer['requests'] = [];
  let next = 0;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const route = req.url ?? '';
      const send = (status: number, value: unknown): void => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      let parsed: Record<string, unknown>;
      try {
        parsed = JSON.parse(body) as Record<string, unknown>;
      } catch {
        send(400, { error: 'not JSON' });
        return;
      }
      requests.push({ route, body: parsed });
      if (route === '/reset') {
        const game = games[String(parsed.gamefile)];
        if (!game) return send(404, { error: 'no such game' });
        const id = `ep-${next++}`;
        const contents = new Map(Object.entries(game.places).map(([p, o]) => [p, [...o]]));
        const s: EpisodeState = { game, at: '', holding: '', open: new Set(), contents, won: false };
        episodes.set(id, s);
        const room = `You are in the middle of a room. Looking quickly around you, you see ${[...contents.keys()].map((p) => `a ${p}`).join(', ')}.`;
        return send(200, {
          episode: id,
          observation: `-= Welcome to TextWorld, ALFRED! =-\n\n${room}\n\nYour task is to: ${game.goal}.`,
          admissible_commands: admissible(s),
        });
      }
      const s = episodes.get(String(parsed.episode));
      if (!s) return send(404, { error: 'no such episode' });
      if (route === '/step') {
        const observation = act(s, String(parsed.action));
        return send(200, { observation, admissible_commands: admissible(s), done: s.won, won: s.won });
      }
      if (route === '/close') {
        episodes.delete(String(parsed.episode));
        return send(200, {});
      }
      send(404, { error: 'no such route' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
