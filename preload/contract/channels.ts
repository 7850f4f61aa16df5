/**
 * The table of every invoke channel (renderer → main): each domain's input schemas merged into
 * `channels` (what main validates against and the preload exposes), and each domain's output
 * types merged into the type-only {@link ChannelOutputs}; a compile-time check keeps the two on
 * exactly the same names. docs/ARCHITECTURE.md "The IPC contract".
 */
import type { z } from 'zod';
import { appInfoChannels, type AppInfoChannelOutputs } from './app-info.js';
import { appsChannels, type AppsChannelOutputs } from './apps.js';
import { catalogChannels, type CatalogChannelOutputs } from './catalog.js';
import { chatChannels, type ChatChannelOutputs } from './chat.js';
import { inspectorChannels, type InspectorChannelOutputs } from './inspector.js';
import { profileChannels, type ProfileChannelOutputs } from './profiles.js';
import { protocolChannels, type ProtocolChannelOutputs } from './protocol.js';
import { serverChannels, type ServerChannelOutputs } from './servers.js';
import { toolChannels, type ToolChannelOutputs } from './tools.js';
import { taskChannels, type TaskChannelOutputs } from './tasks.js';

/** Every invoke channel and its zod input schema (strict: unknown fields are rejected, strings are bounded). */
export const channels = {
  ...appInfoChannels,
  ...serverChannels,
  ...toolChannels,
  ...profileChannels,
  ...chatChannels,
  ...catalogChannels,
  ...protocolChannels,
  ...appsChannels,
  ...inspectorChannels,
  ...taskChannels,
} as const;

/** What every invoke channel returns (type only; the value inside the `ok` envelope). */
export interface ChannelOutputs
  extends AppInfoChannelOutputs,
    ServerChannelOutputs,
    ToolChannelOutputs,
    ProfileChannelOutputs,
    ChatChannelOutputs,
    CatalogChannelOutputs,
    ProtocolChannelOutputs,
    AppsChannelOutputs,
    InspectorChannelOutputs,
    TaskChannelOutputs {}

/** `true` when `A` and `B` are the same names; else the names one has and the other lacks. */
type SameNames<A, B> = [Exclude<A, B>, Exclude<B, A>] extends [never, never] ? true : { channels_without_output: Exclude<A, B>; outputs_without_channel: Exclude<B, A> };
/** Fails to compile when a channel has no output type, or an output type no channel. */
const _everyChannelHasAnOutput: SameNames<keyof typeof channels, keyof ChannelOutputs> = true;

/** The name of an invoke channel (the check above makes both tables' names the same). */
export type ChannelName = keyof typeof channels & keyof ChannelOutputs;
/** What the renderer sends on channel `C` (the zod schema's input type). */
export type ChannelInput<C extends ChannelName> = z.input<(typeof channels)[C]['input']>;
/** What channel `C` returns (inside the `ok` envelope). */
export type ChannelOutput<C extends ChannelName> = ChannelOutputs[C];
/** Every channel name, derived from {@link channels}. */
export const channelNames = Object.keys(channels) as ChannelName[];
