/**
 * ToolPins: each listed tool checked against its pin (docs/ARCHITECTURE.md "Pinned tool
 * definitions"). The tool table calls {@link ToolPins.check} with a ready server's listing and the
 * identity of its configuration; the result is a status per tool (`pinned | new | changed {diff}`).
 * A server's first listing ever is accepted as seen (the user added that server and saw its
 * tools). Afterwards a tool with no pin is pinned as seen but not accepted (`new`), and a tool whose
 * definition hash or configuration identity differs from its pin is `changed`, until the user
 * accepts it ({@link ToolPins.accept}: a button, or allowing a call on the approval card). The
 * check of one listing is remembered (by the listing's array and the pins' generation), so a table
 * rebuild that did not re-list costs nothing; and that check keeps each tool's last listed
 * definition with its canonical hash, so a re-list that sends a definition equal as JSON to the last one
 * (compared by walking both, {@link sameJson}, no serialising) is not canonicalised or hashed again.
 * The pin file is written at most once per listing (only when something was newly pinned).
 */
import type { Tool } from '@modelcontextprotocol/client';
import type { ToolPinStatus } from '../../../preload/contract/index.js';
import { definitionHash, definitionOf, sameJson, type ToolDefinition } from './definition.js';
import { diffDefinitions } from './diff.js';
import type { PinStore, ToolPin } from './store.js';

/** A listed tool's status with the hash of the definition listed now (what accepting it pins). */
export interface CheckedTool {
  status: ToolPinStatus;
  hash: string;
  definition: ToolDefinition;
}

const PINNED: ToolPinStatus = { kind: 'pinned' };
const NEW: ToolPinStatus = { kind: 'new' };

/** The listed tools of one server, checked. */
interface Checked {
  listing: readonly Tool[];
  identity: string;
  generation: number;
  tools: Map<string, CheckedTool>;
}

/** The pins of one app core's servers. */
export class ToolPins {
  /** Per server, the last check: also each tool's last listed definition with its canonical hash. */
  private readonly checked = new Map<string, Checked>();
  /** Bumped whenever a pin is accepted, so remembered checks are made again. */
  private generation = 0;

  constructor(
    private readonly store: PinStore,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Check one ready server's listing against its pins; pins what is seen for the first time (and
   * writes the server's file when anything was pinned). Equal arguments give the remembered answer.
   * @param identity `programIdentity` of the configuration the listing came from
   */
  check(server: string, identity: string, listing: readonly Tool[]): Map<string, CheckedTool> {
    const prior = this.checked.get(server);
    if (prior && prior.listing === listing && prior.identity === identity && prior.generation === this.generation) return prior.tools;
    const pins = this.store.get(server);
    const first = !pins.known;
    let wrote = first;
    const out = new Map<string, CheckedTool>();
    // The last check's definitions and hashes (tools no longer listed drop out with it; their pins stay).
    const known = prior?.tools;
    for (const t of listing) {
      const seen = known?.get(t.name);
      // The definition as listed now (it shares the listing's objects, so no older listing is kept alive).
      const definition = definitionOf(t);
      const hash = seen !== undefined && sameJson(seen.definition, definition) ? seen.hash : definitionHash(definition);
      const pin = pins.tools.get(t.name);
      if (!pin) {
        pins.tools.set(t.name, { hash, definition, identity, accepted: first, pinned_at: this.now() });
        wrote = true;
        out.set(t.name, { status: first ? PINNED : NEW, hash, definition });
      } else {
        // A pin read from disk holds its own copy of a definition equal to the listed one: share
        // the listed one instead (same canonical JSON, so the file does not change).
        if (pin.hash === hash && pin.definition !== definition) {
          pin.definition = definition;
          pin.hash = hash;
        }
        out.set(t.name, { status: statusOf(pin, hash, identity, definition), hash, definition });
      }
    }
    pins.known = true;
    // A failed write is reported by the store; the pins hold in memory and are written at the next change.
    if (wrote) this.store.save(server).catch(() => undefined);
    this.checked.set(server, { listing, identity, generation: this.generation, tools: out });
    return out;
  }

  /** The last checked status of a server's tool; null when it was not checked (not listed, not ready). */
  current(server: string, tool: string): CheckedTool | null {
    return this.checked.get(server)?.tools.get(tool) ?? null;
  }

  /**
   * Accept tools' definitions as listed now (their last check): each becomes the accepted pin,
   * for `identity`. `only` names the tools (default: every tool that is not `pinned`); with
   * `expectHash`, the one tool is accepted only if its listed definition still has that hash.
   * @returns the names accepted; resolves once the file is written. @throws the fs error of the write
   */
  async accept(server: string, identity: string, only?: readonly string[], expectHash?: string): Promise<string[]> {
    const checked = this.checked.get(server);
    if (!checked) return [];
    const pins = this.store.get(server);
    const names = only ?? [...checked.tools].filter(([, c]) => c.status.kind !== 'pinned').map(([n]) => n);
    const accepted: string[] = [];
    for (const name of names) {
      const c = checked.tools.get(name);
      if (!c || (expectHash !== undefined && c.hash !== expectHash)) continue;
      pins.tools.set(name, { hash: c.hash, definition: c.definition, identity, accepted: true, pinned_at: this.now() });
      checked.tools.set(name, { ...c, status: PINNED });
      accepted.push(name);
    }
    if (accepted.length === 0) return accepted;
    this.generation++;
    await this.store.save(server);
    return accepted;
  }

  /** Forget what was checked for a server (it stopped or was removed); its pins stay on disk. */
  forget(server: string): void {
    this.checked.delete(server);
  }

  /**
   * A server was renamed: its pins, and what was checked for it, move to the new name (the pins
   * hold for the program, which a new name does not change). @throws the fs error (nothing moved)
   */
  async rename(from: string, to: string): Promise<void> {
    await this.store.rename(from, to);
    this.forget(from);
    this.forget(to);
    this.generation++;
  }

  /** A server was removed: forget its pins (memory and file). @throws the fs error */
  async drop(server: string): Promise<void> {
    this.forget(server);
    this.generation++;
    await this.store.remove(server);
  }

  /** Whether tools that are not `pinned` are held back from the model. */
  holdUnaccepted(): boolean {
    return this.store.settings().hold_unaccepted;
  }

  /** The pin store (settings, flush). */
  get files(): PinStore {
    return this.store;
  }
}

/** How a listed definition stands against its pin. */
function statusOf(pin: ToolPin, hash: string, identity: string, definition: ToolDefinition): ToolPinStatus {
  const programChanged = pin.identity !== identity;
  if (pin.hash !== hash || programChanged) return { kind: 'changed', diff: pin.hash === hash ? [] : diffDefinitions(pin.definition, definition), program_changed: programChanged, pinned_at: pin.pinned_at };
  return pin.accepted ? PINNED : NEW;
}
