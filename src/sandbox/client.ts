/** A minimal HTTP client of the sandbox, for its tests and its benchmark. */
export interface Answer<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export async function call<T = any>(baseUrl: string, method: string, path: string, body?: unknown): Promise<Answer<T>> {
  const response = await fetch(baseUrl + path, {
    method,
    redirect: 'manual',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  const isJson = response.headers.get('content-type')?.includes('json') ?? false;
  return { status: response.status, headers: response.headers, body: isJson && text ? JSON.parse(text) : text };
}
