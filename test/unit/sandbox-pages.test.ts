import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { chromium } from 'playwright-core';
import { chromiumArgs, findChromium } from '../../src/core/chromium.ts';
import { call } from '../../src/sandbox/client.ts';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';

let sandbox: Sandbox;
/** The same sandbox with pageStyle 'portal'. */
let portal: Sandbox;
const api = (method: string, path: string, body?: unknown, on = sandbox) => call(on.url, method, path, body);
const paymentState = async (paymentId: string, on = sandbox) => (await api('GET', `/payments/${paymentId}`, undefined, on)).body.data.stateDetails.state;

async function checkout(request: object, on = sandbox) {
  const answer = await api('POST', '/checkouts', request, on);
  assert.equal(answer.status, 201, JSON.stringify(answer.body));
  return answer.body.data as { id: string; paymentId: string; checkoutUrl: string };
}

/** The text content of the element carrying data-testid, from the HTML. */
function byTestId(html: string, testId: string): string | undefined {
  return new RegExp(`data-testid="${testId}"[^>]*>([^<]*)<`).exec(html)?.[1];
}
const hasTestId = (html: string, testId: string) => html.includes(`data-testid="${testId}"`);
/** The text content of the element with this id, from the HTML. */
const byId = (html: string, id: string) => new RegExp(`id="${id}"[^>]*>([^<]*)<`).exec(html)?.[1];

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
  portal = await startSandbox({ db: ':memory:', entity: '11604', pageStyle: 'portal' });
});
after(() => Promise.all([sandbox.close(), portal.close()]));

/** A shop on another origin: `/done…` thanks the customer, any other path is `html()`. */
async function startMerchant(html: () => string) {
  const merchant = createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end(request.url!.startsWith('/done') ? '<p>thanks</p>' : html());
  });
  merchant.listen(0, '127.0.0.1');
  await once(merchant, 'listening');
  return { url: `http://127.0.0.1:${(merchant.address() as AddressInfo).port}`, close: () => merchant.close() };
}

// The suite's own Chromium, wherever it comes from (npm install brings one).
const browserFound = await findChromium();
const launchChromium = () => chromium.launch({ executablePath: browserFound.executablePath!, args: chromiumArgs });
const withoutBrowser = browserFound.executablePath === null ? browserFound.reason : false;

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
    const atm = await checkout({
      payment: { amount: 500, code: 'P1', summary: 'Livro', paymentMethod: { code: 'MB' } },
      page: { language: 'PT', layout: 'web' },
    });
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
    assert.deepEqual(
      stored.map((m: any) => [m.type, m.last4Digitis, m.holder]),
      [['CC', '1111', 'Ana Silva']],
    );
    assert.equal((await api('GET', `/payments/${shop.paymentId}`)).body.data.stateDetails.state, 'confirmed');
    const processed = await (await fetch(shop.checkoutUrl)).text();
    assert.ok(!hasTestId(processed, 'payment-form'), 'a processed checkout shows its outcome, not the form');
    const again = await fetch(`${sandbox.url}/pay/${shop.id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(cardFields).toString(),
    });
    assert.equal(again.status, 409);
  });

  test('deep links keep their scheme and query; without an action redirect a page says the payment is done', async () => {
    const app = await checkout({
      payment: { amount: 100, paymentMethod: { code: 'MW' } },
      page: { layout: 'default' },
      redirects: [{ type: 'action', url: 'myshop://paid?order=1' }],
    });
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
    const embed = await checkout({
      payment: { amount: 100, paymentMethod: { code: 'CC' } },
      page: { layout: 'embed' },
      redirects: [{ type: 'action', url: 'https://shop.example/done' }],
    });
    const response = await fetch(embed.checkoutUrl);
    assert.match(String(response.headers.get('content-type')), /^text\/javascript/);
    assert.match(await response.text(), /form\.paymentWidgets/);
  });
});

describe('the embed widget in a browser', { skip: withoutBrowser }, () => {
  test('renders inside the merchant form on another origin and pays through to the action URL', async () => {
    let checkoutUrl = '';
    const merchant = await startMerchant(
      () => `<!doctype html><title>Shop</title><h1>Checkout</h1><form class="paymentWidgets"></form><script src="${checkoutUrl}"></script>`,
    );
    const embed = await checkout({
      payment: { amount: 4200, paymentMethod: { code: 'CC' } },
      page: { layout: 'embed' },
      redirects: [{ type: 'action', url: `${merchant.url}/done?cart=3` }],
    });
    checkoutUrl = embed.checkoutUrl;
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.goto(merchant.url);
      await page.locator('form.paymentWidgets [data-testid=card-number]').fill('4111111111111111');
      await page.locator('[data-testid=card-holder]').fill('Ana Silva');
      await page.locator('[data-testid=expire-month]').fill('07');
      await page.locator('[data-testid=expire-year]').fill('2031');
      assert.equal(await page.locator('[data-testid=amount]').textContent(), '42,00 €');
      await Promise.all([page.waitForURL(`${merchant.url}/done?**`), page.locator('[data-testid=pay-button]').click()]);
      assert.equal(page.url(), `${merchant.url}/done?cart=3&id=${embed.id}`);
      assert.equal(await paymentState(embed.paymentId), 'confirmed');
    } finally {
      await browser.close();
      merchant.close();
    }
  });
});

describe('the portal page style', () => {
  test('a card checkout: the card fields in an iframe, no chooser, no data-testid', async () => {
    const cc = await checkout({ payment: { amount: 1250, paymentMethod: { code: 'CC' } }, page: { layout: 'web' } }, portal);
    const html = await (await fetch(cc.checkoutUrl)).text();
    assert.match(html, /<html lang="pt">/);
    assert.ok(!html.includes('data-testid'));
    assert.ok(!html.includes('type="radio"'), 'one method: no chooser');
    assert.ok(html.includes('<input type="hidden" name="method" value="CC">'));
    assert.equal(byId(html, 'montante'), '12,50 €');
    assert.equal(byId(html, 'pagar'), 'Pagar 12,50 €');
    const src = /<iframe name="card-fields" title="Dados do cartão" src="([^"]+)"/.exec(html)?.[1];
    assert.equal(src, `${portal.url}/pay/${cc.id}/card-fields`);
    const fields = await (await fetch(src)).text();
    for (const id of ['numero', 'titular', 'mes', 'ano']) assert.ok(fields.includes(`id="${id}"`), id);
    assert.ok(!fields.includes('<form') && !fields.includes('data-testid'));
  });

  test('a checkout offering card and MB WAY has the chooser and the wallet fields', async () => {
    const any = await checkout({ payment: { amount: 500 } }, portal);
    const html = await (await fetch(any.checkoutUrl)).text();
    assert.ok(html.includes('<input type="radio" name="method" value="CC" checked> Cartão'));
    assert.ok(html.includes('<input type="radio" name="method" value="MW"> MB WAY'));
    assert.ok(html.includes('<input id="indicativo" name="walletCountryCode" inputmode="numeric" value="351">'));
    assert.ok(html.includes('id="telemovel"'));
    assert.ok(!html.includes('data-testid'));
  });

  test('paying posts the plain field names and leaves by script for the action URL: no Location, no link', async () => {
    const uuid = randomUUID();
    const shop = await checkout(
      {
        payment: { amount: 900, customer: { uuid }, paymentMethod: { code: 'CC', details: { allowRegistration: true } } },
        redirects: [{ type: 'action', url: 'https://shop.example/done?order=7' }],
      },
      portal,
    );
    assert.ok((await (await fetch(shop.checkoutUrl)).text()).includes('<input type="checkbox" id="guardar" name="storeConsent" value="on">'));
    const refused = await submitForm(shop.checkoutUrl, { ...cardFields, cardNumber: '4111111111111112' });
    assert.equal(refused.status, 422);
    assert.match(await refused.text(), /Pagamento recusado: .*Luhn[\s\S]*<iframe name="card-fields"/);
    const paid = await submitForm(shop.checkoutUrl, { ...cardFields, storeConsent: 'on' });
    assert.equal(paid.status, 200);
    assert.equal(paid.headers.get('location'), null);
    const html = await paid.text();
    assert.ok(html.includes(`<script>location.replace("https://shop.example/done?order=7&id=${shop.id}")</script>`), html);
    assert.ok(html.includes('A redirecionar…') && !html.includes('<a '));
    const stored = (await api('GET', `/customers/${uuid}/paymentMethods`, undefined, portal)).body.data;
    assert.deepEqual(
      stored.map((m: any) => [m.type, m.last4Digitis]),
      [['CC', '1111']],
    );
    assert.match(await (await fetch(shop.checkoutUrl)).text(), /Este checkout já foi processado\./);

    const app = await checkout(
      { payment: { amount: 100, paymentMethod: { code: 'MW' } }, redirects: [{ type: 'action', url: 'com.shop.app://paid?order=7' }] },
      portal,
    );
    const deepLink = await submitForm(app.checkoutUrl, { method: 'MW', walletCountryCode: '351', walletNumber: '912345678' });
    assert.ok((await deepLink.text()).includes(`location.replace("com.shop.app://paid?order=7&id=${app.id}")`));
    const plain = await checkout({ payment: { amount: 100, paymentMethod: { code: 'CC' } } }, portal);
    assert.match(await (await submitForm(plain.checkoutUrl, cardFields)).text(), /Pagamento efetuado/);
  });

  test('the ATM page shows the reference in groups of three', async () => {
    const atm = await checkout({ payment: { amount: 500, paymentMethod: { code: 'MB' } }, page: { layout: 'web' } }, portal);
    const html = await (await fetch(atm.checkoutUrl)).text();
    const { reference } = (await api('GET', `/payments/${atm.paymentId}`, undefined, portal)).body.data.referenceDetails;
    assert.equal(byId(html, 'referencia'), reference.replace(/(\d{3})(\d{3})(\d{3})/, '$1 $2 $3'));
    assert.equal(byId(html, 'entidade'), '11604');
    assert.equal(byId(html, 'montante'), '5,00 €');
    assert.match(html, /Referência[\s\S]*Válido até/);
  });

  test('the widget renders the portal markup, its iframe at an absolute URL on the sandbox', async () => {
    const embed = await checkout(
      { payment: { amount: 100, paymentMethod: { code: 'CC' } }, page: { layout: 'embed' }, redirects: [{ type: 'action', url: 'https://shop.example/done' }] },
      portal,
    );
    const script = await (await fetch(embed.checkoutUrl)).text();
    const html = JSON.parse(/var html = (".*");/.exec(script)![1]) as string;
    assert.ok(html.includes(`<iframe name="card-fields" title="Dados do cartão" src="${portal.url}/pay/${embed.id}/card-fields">`));
    assert.ok(html.includes('id="pagar"') && !script.includes('data-testid'));
  });
});

describe('the portal page style in a browser', { skip: withoutBrowser }, () => {
  /** Fills the card iframe as a customer does, pays, and waits for the action URL. */
  async function payByCard(page: import('playwright-core').Page, actionUrl: string) {
    const card = page.frameLocator('iframe[name=card-fields]');
    await card.locator('#numero').fill('4111 1111 1111 1111');
    await card.locator('#titular').fill('Ana Silva');
    await card.locator('#mes').fill('07');
    await card.locator('#ano').fill('2031');
    await Promise.all([page.waitForURL(`${actionUrl}?**`), page.locator('#pagar').click()]);
  }

  test('the hosted page and the widget carry the iframe card fields to the POST, then the script redirect', async () => {
    let checkoutUrl = '';
    const merchant = await startMerchant(() => `<!doctype html><title>Loja</title><form class="paymentWidgets"></form><script src="${checkoutUrl}"></script>`);
    const browser = await launchChromium();
    try {
      const hosted = await checkout(
        { payment: { amount: 4200, paymentMethod: { code: 'CC' } }, redirects: [{ type: 'action', url: `${merchant.url}/done?cart=3` }] },
        portal,
      );
      const page = await browser.newPage();
      await page.goto(hosted.checkoutUrl);
      assert.equal(await page.locator('#montante').textContent(), '42,00 €');
      await payByCard(page, `${merchant.url}/done`);
      assert.equal(page.url(), `${merchant.url}/done?cart=3&id=${hosted.id}`);
      assert.equal(await paymentState(hosted.paymentId, portal), 'confirmed');

      const embed = await checkout(
        {
          payment: { amount: 700, paymentMethod: { code: 'CC' } },
          page: { layout: 'embed' },
          redirects: [{ type: 'action', url: `${merchant.url}/done?cart=4` }],
        },
        portal,
      );
      checkoutUrl = embed.checkoutUrl;
      await page.goto(merchant.url);
      await payByCard(page, `${merchant.url}/done`);
      assert.equal(page.url(), `${merchant.url}/done?cart=4&id=${embed.id}`);
      assert.equal(await paymentState(embed.paymentId, portal), 'confirmed');
    } finally {
      await browser.close();
      merchant.close();
    }
  });
});
