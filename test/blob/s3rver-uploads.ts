/**
 * s3rver 3.7 keeps multipart uploads but answers none of the calls that list or abort them:
 * ListMultipartUploads (GET ?uploads) is NotImplemented, ListParts and AbortMultipartUpload
 * (GET and DELETE ?uploadId) are 405. This front answers those three from s3rver's own files,
 * `<directory>/<bucket>/._S3rver_uploads/<uploadId>/` holding `key` and one file per part, and
 * passes every other request through unchanged (headers included, so SigV4 still verifies).
 *
 * An upload's Initiated is the mtime of its `key` file and a part's LastModified the mtime of its
 * file, so a test ages them with fs.utimes (`age`).
 */
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import { readdir, readFile, rm, stat, utimes } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

export interface UploadsFront {
  endpoint: string;
  /** Sets the mtime of an upload's `key` file (its Initiated) and, if `parts`, of its parts. */
  age(uploadId: string, to: Date, parts: boolean): Promise<void>;
  /** The upload ids s3rver holds, read from its files. */
  uploadIds(): Promise<string[]>;
  close(): Promise<void>;
}

export async function startUploadsFront(targetPort: number, directory: string, bucket: string): Promise<UploadsFront> {
  const uploadsDir = path.join(directory, bucket, '._S3rver_uploads');
  const uploadDir = (id: string): string => {
    if (!/^[0-9a-f]{32}$/.test(id)) throw new Error(`not an s3rver upload id: ${id}`);
    return path.join(uploadsDir, id);
  };

  const uploadIds = async (): Promise<string[]> => (await readdir(uploadsDir).catch(() => [])).filter((id) => /^[0-9a-f]{32}$/.test(id));

  const listUploads = async (query: URLSearchParams): Promise<string> => {
    const prefix = query.get('prefix') ?? '';
    const max = Number(query.get('max-uploads') ?? 1000);
    const after = [query.get('key-marker') ?? '', query.get('upload-id-marker') ?? ''] as const;
    const uploads = [];
    for (const id of await uploadIds()) {
      const key = await readFile(path.join(uploadDir(id), 'key'), 'utf8');
      const initiated = (await stat(path.join(uploadDir(id), 'key'))).mtime;
      if (key.startsWith(prefix) && (key > after[0] || (key === after[0] && id > after[1]))) uploads.push({ key, id, initiated });
    }
    uploads.sort((a, b) => (a.key === b.key ? (a.id < b.id ? -1 : 1) : a.key < b.key ? -1 : 1));
    const page = uploads.slice(0, max);
    const last = page.at(-1);
    const truncated = uploads.length > page.length && last !== undefined;
    return xml('ListMultipartUploadsResult', [
      el('Bucket', bucket),
      el('Prefix', prefix),
      el('MaxUploads', String(max)),
      el('IsTruncated', String(truncated)),
      truncated ? el('NextKeyMarker', last.key) + el('NextUploadIdMarker', last.id) : '',
      ...page.map((u) => el('Upload', el('Key', escape(u.key)) + el('UploadId', u.id) + el('Initiated', u.initiated.toISOString()))),
    ]);
  };

  const listParts = async (key: string, id: string, query: URLSearchParams): Promise<string> => {
    const marker = Number(query.get('part-number-marker') ?? 0);
    const max = Number(query.get('max-parts') ?? 1000);
    const numbers = (await readdir(uploadDir(id)))
      .filter((name) => /^\d+$/.test(name))
      .map(Number)
      .filter((n) => n > marker)
      .sort((a, b) => a - b);
    const page = numbers.slice(0, max);
    const parts = [];
    for (const n of page) {
      const file = path.join(uploadDir(id), String(n));
      const [info, md5] = await Promise.all([stat(file), readFile(`${file}.md5`, 'utf8')]);
      parts.push(
        el(
          'Part',
          el('PartNumber', String(n)) +
            el('LastModified', info.mtime.toISOString()) +
            el('ETag', `"${md5}"`) +
            el('Size', String(info.size)),
        ),
      );
    }
    const truncated = numbers.length > page.length;
    return xml('ListPartsResult', [
      el('Bucket', bucket),
      el('Key', escape(key)),
      el('UploadId', id),
      el('MaxParts', String(max)),
      el('IsTruncated', String(truncated)),
      truncated ? el('NextPartNumberMarker', String(page.at(-1))) : '',
      ...parts,
    ]);
  };

  const answer = async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    const url = new URL(req.url ?? '/', 'http://front');
    const [, bucketName, ...keyParts] = url.pathname.split('/');
    if (bucketName !== bucket) return false;
    const key = decodeURIComponent(keyParts.join('/'));
    const id = url.searchParams.get('uploadId');
    const send = (status: number, body: string): true => {
      res.writeHead(status, body === '' ? {} : { 'content-type': 'application/xml' }).end(body);
      return true;
    };
    if (req.method === 'GET' && key === '' && url.searchParams.has('uploads')) return send(200, await listUploads(url.searchParams));
    if (id === null || key === '' || (req.method !== 'GET' && req.method !== 'DELETE')) return false;
    const exists = await stat(uploadDir(id)).then(
      () => true,
      () => false,
    );
    if (!exists) return send(404, xml('Error', [el('Code', 'NoSuchUpload'), el('Message', 'The specified upload does not exist.')]));
    if (req.method === 'GET') return send(200, await listParts(key, id, url.searchParams));
    await rm(uploadDir(id), { recursive: true, force: true });
    return send(204, '');
  };

  const server = createServer((req, res) => {
    answer(req, res).then(
      (done) => {
        if (done) return;
        const upstream = request(
          { host: '127.0.0.1', port: targetPort, method: req.method, path: req.url, headers: req.headers },
          (back) => {
            res.writeHead(back.statusCode ?? 502, back.headers);
            back.pipe(res);
          },
        );
        upstream.on('error', () => res.destroy());
        req.pipe(upstream);
      },
      (err: unknown) => res.writeHead(500).end(String(err)),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    async age(id, to, parts) {
      const dir = uploadDir(id);
      const names = parts ? (await readdir(dir)).filter((name) => /^\d+$/.test(name)) : [];
      for (const name of ['key', ...names]) await utimes(path.join(dir, name), to, to);
    },
    uploadIds,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function el(name: string, content: string): string {
  return `<${name}>${content}</${name}>`;
}

function xml(root: string, children: string[]): string {
  const body = children.join('');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<${root} xmlns="http://s3.amazonaws.com/doc/2006-03-01/">${body}</${root}>`;
}
