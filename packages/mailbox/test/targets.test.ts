// Which addresses the API may reach on an admin's word, and how: every address of a name checked,
// the connection made to a checked one (a resolver that changes its answer is asked once), the
// host name kept for TLS's name check; MAILBOX_ALLOWED_NETWORKS' ranges read strictly. A real
// Dovecot and a real provider on loopback, reached by names only this test's resolver knows.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { HostNotFound, MailboxTargets, networkRanges, TargetRefused, testConnection, type ImapSettings } from '../src/index.ts';
import { imapScope, startDovecot, startIdentityProvider, type Dovecot, type IdentityProvider } from '../testing/index.ts';
import type { Address } from '../src/targets.ts';

const caDir = process.env.EJDESK_TEST_CA_DIR!;
const v4 = (address: string): Address => ({ address, family: 4 });
const v6 = (address: string): Address => ({ address, family: 6 });

describe('which addresses are reached', () => {
  const publicOnly = new MailboxTargets([]);

  test.each([
    ['8.8.8.8', true],
    ['1.1.1.1', true],
    ['[2001:4860:4860::8888]', true],
    ['127.0.0.1', false],
    ['127.255.0.9', false],
    ['0.0.0.0', false],
    ['10.1.2.3', false],
    ['100.64.0.1', false],
    ['169.254.169.254', false],
    ['172.16.5.5', false],
    ['192.168.0.1', false],
    ['192.0.2.1', false],
    ['198.18.0.1', false],
    ['224.0.0.1', false],
    ['255.255.255.255', false],
    ['[::]', false],
    ['[::1]', false],
    ['[::ffff:127.0.0.1]', false],
    ['[0:0:0:0:0:ffff:7f00:1]', false],
    ['[::ffff:a9fe:a9fe]', false],
    ['[64:ff9b::7f00:1]', false],
    ['[fe80::1]', false],
    ['[fd00::1]', false],
    ['[ff02::1]', false],
    ['[2001:db8::1]', false],
    ['[2002:7f00:1::1]', false],
  ])('%s: public %s', async (host, reachable) => {
    if (reachable) expect((await publicOnly.pin(host)).addresses).toHaveLength(1);
    else await expect(publicOnly.pin(host)).rejects.toThrow(TargetRefused);
  });

  test('MAILBOX_ALLOWED_NETWORKS: CIDR ranges or single addresses, an IPv4-mapped range as its IPv4 range; anything else is refused', () => {
    expect(networkRanges(' 127.0.0.0/8, fd00::/8,::ffff:10.0.0.0/104 ,192.168.1.5, ')).toEqual(['127.0.0.0/8', 'fd00::/8', '10.0.0.0/8', '192.168.1.5/32']);
    expect(networkRanges('')).toEqual([]);
    for (const bad of ['10.0.0.0/33', 'intranet', '10.0.0.0/8/2', '::/129', '10.0.0.0/x', '10.0.0/8'])
      expect(() => networkRanges(bad), bad).toThrow(`"${bad}" is not an address range such as 10.20.0.0/16 or fd00::/8`);
  });

  test('an allowed range lets its addresses in, in any spelling, and no others', async () => {
    const allowed = new MailboxTargets(networkRanges('127.0.0.0/8,fd00::/8,192.168.1.5'));
    for (const host of ['127.0.0.1', '[::ffff:127.0.0.1]', '[fd12::1]', '192.168.1.5']) expect((await allowed.pin(host)).host).toBe(host);
    for (const host of ['192.168.1.6', '169.254.169.254', '[::1]', '10.0.0.1']) await expect(allowed.pin(host), host).rejects.toThrow(TargetRefused);
    expect(allowed.reachable(v4('8.8.8.8'))).toBe(true);
  });

  test('a name is refused when any of its addresses is, named with that address; a name with none is not found', async () => {
    const answers: Record<string, Address[]> = {
      'mixed.example': [v4('8.8.8.8'), v6('fd00::5')],
      'mail.example': [v4('8.8.4.4'), v6('2001:4860::1')],
      'empty.example': [],
    };
    const targets = new MailboxTargets([], async (host) => {
      if (!(host in answers)) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
      return answers[host]!;
    });
    await expect(targets.pin('mixed.example')).rejects.toThrow('mixed.example (fd00::5) is not on the public internet');
    expect(await targets.pin('mail.example')).toEqual({ host: 'mail.example', addresses: answers['mail.example'] });
    await expect(targets.pin('empty.example')).rejects.toThrow(HostNotFound);
    await expect(targets.pin('nowhere.example')).rejects.toThrow('nowhere.example could not be looked up.');
  });
});

describe('a Test connection reaches the addresses it checked, by name', () => {
  let idp: IdentityProvider;
  let dovecot: Dovecot;
  beforeAll(async () => {
    idp = await startIdentityProvider({ caDir });
    dovecot = await startDovecot({ oauth2: { introspectionUrl: idp.introspectionUrl, client: idp.introspector, caFile: `${caDir}/ca.pem` } });
    await idp.addAppClient('ejdesk-app', 'app-secret', 'disputes@bank.test');
  });
  afterAll(async () => {
    await dovecot?.stop();
    await idp?.stop();
  });

  /** A resolver that answers loopback the first time it is asked for a name and a refused address after. */
  function rebinding() {
    const asked: string[] = [];
    const targets = new MailboxTargets(['127.0.0.0/8'], async (host) => {
      asked.push(host);
      return [asked.filter((h) => h === host).length === 1 ? v4('127.0.0.1') : v4('169.254.169.254')];
    });
    return { asked, targets };
  }

  test('a password mailbox by a name: looked up once, and signed in at the address checked', async () => {
    const { asked, targets } = rebinding();
    const settings: ImapSettings = {
      ...{ host: 'imap.bank.example', port: dovecot.port, tls: false, user: dovecot.user, mailbox: 'INBOX' },
      auth: { method: 'password', password: dovecot.password },
    };
    expect(await testConnection(settings, { targets })).toEqual({ messages: 0 });
    expect(asked).toEqual(['imap.bank.example']);
  });

  test('a token endpoint by a name: its certificate is checked against that name, not the address', async () => {
    const port = new URL(idp.tokenUrl).port;
    const at = (tokenHost: string): ImapSettings => ({
      ...{ host: dovecot.host, port: dovecot.port, tls: false, user: 'disputes@bank.test', mailbox: 'INBOX' },
      auth: {
        method: 'oauth2-client-credentials',
        tokenUrl: `https://${tokenHost}:${port}/token`,
        clientId: 'ejdesk-app',
        clientSecret: 'app-secret',
        scope: imapScope,
      },
    });
    // localhost is on the provider's certificate; the test's resolver says where it is.
    const { asked, targets } = rebinding();
    expect(await testConnection(at('localhost'), { targets })).toEqual({ messages: 0 });
    expect(asked).toEqual(['localhost']);
    // Another name for the same address is not on it: no token, in the words of any failure.
    const failed = await testConnection(at('idp.bank.example'), { targets: rebinding().targets }).catch((err: Error) => err);
    expect(failed).toMatchObject({ message: `Could not get an access token from the token endpoint at idp.bank.example:${port}.` });
    expect(failed).toMatchObject({ cause: { cause: { code: 'ERR_TLS_CERT_ALTNAME_INVALID' } } });
  });
});
