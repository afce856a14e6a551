import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { chromium } from 'playwright-core';
import { call } from '../src/sandbox/client.ts';
import { startSandbox, type Sandbox } from '../src/sandbox/index.ts';

let sandbox: Sandbox;
const api = (method: string, path: string, body?: unknown) => call(sandbox.url, method, path, body);

async function checkout(request: object) {
  const answer = await api('POST', '/checkouts', request);
  assert.equal(answer.status, 201, JSON.stringify(answer.body));
  return answer.body.data as { id: string; paymentId: string; checkoutUrl: string };
}

/** The text content of the element carrying data-testid, from the HTML. */
function byTestId(html: string, testId: string): string | undefined {
  return new RegExp(`data-testid="${testId}"[^>]*>([^<]*)<`).exec(html)?.[1];
}
const hasTestId = (html: string, testId: string) => html.includes(`data-testid="${testId}"`);

async function submitForm(checkoutUrl: string, fields: Record<string, string>) {
  const html = await (await fetch(checkoutUrl)).text();
  const action = /<form method="post" action="([^"]+)"/.exec(html)![1];
  return fetch(new URL(action, checkoutUrl), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
}

const cardFields = { method: 'CC', cardNumber: '4111 1111 1111 1111', cardHolder: 'Ana Silva', expireMonth: '07', expireYear: '2031' };

before(async () => {
  sandbox = await startSandbox({ db: ':memory:', entity: '11604' });
});
after(() => sandbox.close());

describe('hosted pages', () => {
  test('web, basic and default layouts show the card form; the consent box only with allowRegistration', async () => {
    for (const layout of ['web', 'basic', 'default']) {
      const plain = await checkout({ payment: { amount: 1250, paymentMethod: { code: 'CC' } }, page: { layout } });
      const response = await fetch(plain.checkoutUrl);
      assert.equal(response.status, 200);
      assert.match(String(response.headers.get('content-type')), /^text\/html/);
      const html = await response.text();
      for (const testId of ['payment-form', 'method-card', 'card-number', 'card-holder', 'expire-month', 'expire-year', 'pay-button']) {
        assert.ok(hasTestId(html, testId), `${layout}: ${testId}`);
      }
      assert.equal(byTestId(html, 'amount'), '12,50 €');
      assert.ok(!hasTestId(html, 'store-consent'));
    }
    const consent = await checkout({
      payment: { amount: 500, customer: { uuid: randomUUID() }, paymentMethod: { code: 'CC', details: { allowRegistration: true } } },
      page: { layout: 'basic' },
    });
    assert.ok(hasTestId(await (await fetch(consent.checkoutUrl)).text(), 'store-consent'));
    const anyMethod = await checkout({ payment: { amount: 500 }, page: { layout: 'web' } });
    const html = await (await fetch(anyMethod.checkoutUrl)).text();
    for (const testId of ['method-card', 'method-wallet', 'wallet-country-code', 'wallet-number']) assert.ok(hasTestId(html, testId), testId);
  });

  test('an MB checkout with layout web shows entity, reference and amount', async () => {
    const atm = await checkout({ payment: { amount: 500, code: 'P1', summary: 'Livro', paymentMethod: { code: 'MB' } }, page: { language: 'PT', layout: 'web' } });
    const html = await (await fetch(atm.checkoutUrl)).text();
    const payment = (await api('GET', `/payments/${atm.paymentId}`)).body.data;
    assert.equal(byTestId(html, 'atm-entity'), '11604');
    assert.equal(byTestId(html, 'atm-reference'), payment.referenceDetails.reference);
    assert.equal(byTestId(html, 'amount'), '5,00 €');
  });

  test('paying on the page redirects (303) to the action URL with id, and stores with consent', async () => {
    const uuid = randomUUID();
    const shop = await checkout({
      payment: { amount: 900, customer: { uuid }, paymentMethod: { code: 'CC', details: { allowRegistration: true } } },
      page: { layout: 'default' },
      redirects: [{ type: 'action', url: 'https://shop.example/done?order=7' }],
    });
    const response = await submitForm(shop.checkoutUrl, { ...cardFields, storeConsent: 'on' });
    assert.equal(response.status, 303);
    assert.equal(response.headers.get('location'), `https://shop.example/done?order=7&id=${shop.id}`);
    const stored = (await api('GET', `/customers/${uuid}/paymentMethods`)).body.data;
    assert.deepEqual(stored.map((m: any) => [m.type, m.last4Digitis, m.holder]), [['CC', '1111', 'Ana Silva']]);
    assert.equal((await api('GET', `/payments/${shop.paymentId}`)).body.data.stateDetails.state, 'confirmed');
    const processed = await (await fetch(shop.checkoutUrl)).text();
    assert.ok(!hasTestId(processed, 'payment-form'), 'a processed checkout shows its outcome, not the form');
    const again = await fetch(`${sandbox.url}/pay/${shop.id}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(cardFields).toString() });
    assert.equal(again.status, 409);
  });

  test('deep links keep their scheme and query; without an action redirect a page says the payment is done', async () => {
    const app = await checkout({ payment: { amount: 100, paymentMethod: { code: 'MW' } }, page: { layout: 'default' }, redirects: [{ type: 'action', url: 'myshop://paid?order=1' }] });
    const paid = await submitForm(app.checkoutUrl, { method: 'MW', walletCountryCode: '351', walletNumber: '912345678' });
    assert.equal(paid.headers.get('location'), `myshop://paid?order=1&id=${app.id}`);
    const plain = await checkout({ payment: { amount: 100, paymentMethod: { code: 'CC' } }, page: { layout: 'web' } });
    const done = await submitForm(plain.checkoutUrl, cardFields);
    assert.equal(done.status, 200);
    assert.match(await done.text(), /Payment done/);
  });

  test('a bad card shows the form again with the reason; unknown checkouts are 404', async () => {
    const plain = await checkout({ payment: { amount: 100, paymentMethod: { code: 'CC' } }, page: { layout: 'web' } });
    const refused = await submitForm(plain.checkoutUrl, { ...cardFields, cardNumber: '4111111111111112' });
    assert.equal(refused.status, 422);
    const html = await refused.text();
    assert.match(html, /Luhn/);
    assert.ok(hasTestId(html, 'card-number'));
    assert.equal((await api('GET', `/payments/${plain.paymentId}`)).body.data.stateDetails.state, 'pending');
    assert.equal((await fetch(`${sandbox.url}/pay/unknown`)).status, 404);
    assert.equal((await fetch(`${sandbox.url}/embed/unknown/widget.js`)).status, 404);
  });

  test('the embed checkoutUrl is a script', async () => {
    const embed = await checkout({ payment: { amount: 100, paymentMethod: { code: 'CC' } }, page: { layout: 'embed' }, redirects: [{ type: 'action', url: 'https://shop.example/done' }] });
    const response = await fetch(embed.checkoutUrl);
    assert.match(String(response.headers.get('content-type')), /^text\/javascript/);
    assert.match(await response.text(), /form\.paymentWidgets/);
  });
});

describe('the embed widget in a browser', { skip: existsSync('/usr/bin/chromium') ? false : 'no /usr/bin/chromium' }, () => {
  test('renders inside the merchant form on another origin and pays through to the action URL', async () => {
    let checkoutUrl = '';
    const merchant = createServer((request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end(
        request.url!.startsWith('/done')
          ? '<p>thanks</p>'
          : `<!doctype html><title>Shop</title><h1>Checkout</h1><form class="paymentWidgets"></form><script src="${checkoutUrl}"></script>`,
      );
    });
    merchant.listen(0, '127.0.0.1');
    await once(merchant, 'listening');
    const merchantUrl = `http://127.0.0.1:${(merchant.address() as AddressInfo).port}`;
    const embed = await checkout({
      payment: { amount: 4200, paymentMethod: { code: 'CC' } },
      page: { layout: 'embed' },
      redirects: [{ type: 'action', url: `${merchantUrl}/done?cart=3` }],
    });
    checkoutUrl = embed.checkoutUrl;
    const browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
    });
    try {
      const page = await browser.newPage();
      await page.goto(merchantUrl);
      await page.locator('form.paymentWidgets [data-testid=card-number]').fill('4111111111111111');
      await page.locator('[data-testid=card-holder]').fill('Ana Silva');
      await page.locator('[data-testid=expire-month]').fill('07');
      await page.locator('[data-testid=expire-year]').fill('2031');
      assert.equal(await page.locator('[data-testid=amount]').textContent(), '42,00 €');
      await Promise.all([page.waitForURL(`${merchantUrl}/done?**`), page.locator('[data-testid=pay-button]').click()]);
      assert.equal(page.url(), `${merchantUrl}/done?cart=3&id=${embed.id}`);
      assert.equal((await api('GET', `/payments/${embed.paymentId}`)).body.data.stateDetails.state, 'confirmed');
    } finally {
      await browser.close();
      merchant.close();
    }
  });
});
