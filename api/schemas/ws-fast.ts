/**
 * The common /v2/ws message checked without zod: every message is parsed once, and a zod object
 * parse with its defaults and transform was the largest cost per message on the server after the
 * hash itself. Only messages the schema (api/schemas/ws.ts) would accept unchanged pass here;
 * for anything else this answers undefined and the schema decides, so refusals and their wording
 * come from one place.
 */
import {
  decodedLength,
  encodingProblem,
  INPUT_ENCODINGS,
  OUTPUT_FORMATS,
  type InputEncoding,
  type OutputFormat,
} from '../../shared/hashing/encoding.js';
import { MAX_REQUEST_ID_LENGTH, type WsHashMessage } from './ws.js';

const isInputEncoding = (v: unknown): v is InputEncoding => (INPUT_ENCODINGS as readonly unknown[]).includes(v);
const isOutputFormat = (v: unknown): v is OutputFormat => (OUTPUT_FORMATS as readonly unknown[]).includes(v);

/** `value` as WsHashMessage would yield it, or undefined when the schema must look (unusual or invalid). */
export function checkWsHashFast(value: object): WsHashMessage | undefined {
  const { action, id, data, options } = value as { action?: unknown; id?: unknown; data?: unknown; options?: unknown };
  if (action !== 'hash' || typeof data !== 'string') return undefined;
  if (typeof id !== 'string' || id.length < 1 || id.length > MAX_REQUEST_ID_LENGTH) return undefined;
  let encoding: InputEncoding = 'utf8';
  let output: OutputFormat = 'hex';
  if (options !== undefined) {
    if (typeof options !== 'object' || options === null || Array.isArray(options)) return undefined;
    const given = options as { encoding?: unknown; output?: unknown };
    if (given.encoding !== undefined) {
      if (!isInputEncoding(given.encoding)) return undefined;
      encoding = given.encoding;
    }
    if (given.output !== undefined) {
      if (!isOutputFormat(given.output)) return undefined;
      output = given.output;
    }
  }
  if (encodingProblem(data, encoding) !== undefined) return undefined;
  return { id, input: { data, encoding, bytes: decodedLength(data, encoding) }, output };
}
