import type { TestResponse, TestServer } from './server.js';

/**
 * POST a multipart/form-data upload, as a browser or curl -F sends it: `file` is the part named
 * `file` (omitted when undefined); `fields` are other text parts.
 */
export async function uploadFile(
  server: TestServer,
  path: string,
  file: string | Buffer | undefined,
  options: { fields?: Record<string, string>; fileField?: string; headers?: Record<string, string> } = {},
): Promise<TestResponse> {
  const form = new FormData();
  for (const [name, value] of Object.entries(options.fields ?? {})) form.append(name, value);
  if (file !== undefined) form.append(options.fileField ?? 'file', new Blob([file]), 'upload.csv');
  const headers = {
    'X-App-Id': server.serverKey.app_id,
    'X-App-Token': server.serverKey.app_token,
    ...options.headers,
  };
  return answer(await fetch(`${server.url}${path}`, { method: 'POST', headers, body: form }));
}

/** A fetch response as a test reads it: JSON answers parsed. */
async function answer(response: Response): Promise<TestResponse> {
  const text = await response.text();
  const json = (response.headers.get('content-type') ?? '').startsWith('application/json');
  return { status: response.status, headers: response.headers, body: json ? JSON.parse(text) : text, text };
}

/** The same upload sent with `Transfer-Encoding: chunked` (no Content-Length), as a streaming client sends it. */
export async function uploadChunked(server: TestServer, path: string, file: string): Promise<TestResponse> {
  const boundary = 'promo-test-boundary';
  const body = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="upload.csv"\r\nContent-Type: text/csv\r\n\r\n${file}\r\n--${boundary}--\r\n`;
  const stream = new ReadableStream({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(body));
      controller.close();
    },
  });
  const headers = {
    'X-App-Id': server.serverKey.app_id,
    'X-App-Token': server.serverKey.app_token,
    'Content-Type': `multipart/form-data; boundary=${boundary}`,
  };
  return answer(
    await fetch(`${server.url}${path}`, { method: 'POST', headers, body: stream, duplex: 'half' } as RequestInit),
  );
}
