/**
 * The `sha224sum` line format (GNU coreutils): `<hex>  <name>`, and for a name holding a backslash,
 * CR or newline, a leading backslash with those escaped, so `sha224sum -c` reads it back. Also
 * parses manifests in that format and in the BSD tag format (`SHA224 (name) = <hex>`).
 */

export function sumLine(hex: string, name: string): string {
  if (!/[\\\n\r]/.test(name)) return `${hex}  ${name}`;
  return `\\${hex}  ${name.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/\r/g, '\\r')}`;
}

export interface ManifestEntry {
  /** 1-based line number. */
  line: number;
  name: string;
  /** Lowercase hex. */
  hash: string;
}

export interface Manifest {
  entries: ManifestEntry[];
  /** Lines that are neither format (counted and reported, as `sha224sum -c` does). */
  malformed: number;
}

function unescape(name: string): string {
  return name.replace(/\\(\\|n|r)/g, (_m, c: string) => (c === 'n' ? '\n' : c === 'r' ? '\r' : '\\'));
}

const GNU = /^(\\)?([0-9a-fA-F]{56}) [ *](.+)$/;
const BSD = /^(\\)?SHA224 \((.+)\) = ([0-9a-fA-F]{56})$/;

export function parseManifest(text: string): Manifest {
  const entries: ManifestEntry[] = [];
  let malformed = 0;
  text.split('\n').forEach((raw, index) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line === '' || line.startsWith('#')) return;
    const gnu = GNU.exec(line);
    const bsd = gnu ? null : BSD.exec(line);
    if (gnu) entries.push({ line: index + 1, hash: gnu[2]!.toLowerCase(), name: gnu[1] ? unescape(gnu[3]!) : gnu[3]! });
    else if (bsd) entries.push({ line: index + 1, hash: bsd[3]!.toLowerCase(), name: bsd[1] ? unescape(bsd[2]!) : bsd[2]! });
    else malformed += 1;
  });
  return { entries, malformed };
}
