/**
 * A scripted model to try the app without a model provider (`npm run try-model`): the tests'
 * OpenAI-compatible fake (test/fixtures/fake-model.ts) on loopback, serving until Ctrl+C. It
 * echoes what you write, and `call <tool> <json>` makes it call the offered tool whose name ends
 * with <tool>, then say the result — enough to see approvals, tool cards, tasks and MCP Apps work.
 * Port: `OPENPROGRAM_TRY_MODEL_PORT` (default 11435).
 */
import { startFakeModel } from '../test/fixtures/fake-model.js';

const port = Number(process.env.OPENPROGRAM_TRY_MODEL_PORT ?? 11435);
const model = await startFakeModel({ port, models: ['echo'], chunkDelayMs: 15 });
console.log(`A scripted model (not a real one) is listening.
In the app: Settings → Model → Base URL ${model.baseUrl}, Model name echo, no API key → Save model.
It answers "echo: <your text>"; "call <tool> {"arg": "value"}" calls the offered tool whose name ends with <tool>
(e.g. call echo {"message": "hi"} with server-everything). Ctrl+C stops it.`);
const stop = (): void => void model.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
