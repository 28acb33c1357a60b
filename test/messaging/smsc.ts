import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';

const require = createRequire(import.meta.url);
const smpp = require('smpp') as any;

/**
 * A real SMPP 3.4 server (an SMSC) on loopback for the tests, from the `smpp` package: it accepts a
 * bind with the given system_id and password, answers enquire_link, and keeps every submit_sm
 * (destination, source, text, UDH). `refuse(status)` answers the next submit_sm with that
 * command_status (0x58 throttled, 0x0B invalid destination) until `refuse(null)`.
 */
export interface Submitted {
  destination: string;
  source: string;
  text: string;
  udh: Buffer | null;
  dataCoding: number;
}

export async function startSmsc(account = { systemId: 'airgift', password: 'secret' }) {
  const submitted: Submitted[] = [];
  let refusal: number | null = null;
  let binds = 0;
  const bindCommands: string[] = [];
  let enquireLinks = 0;
  let nextId = 1;
  // the session each message id was submitted on: a receipt goes back on it
  const sessionOf = new Map<string, any>();
  const server = smpp.createServer((session: any) => {
    session.on('error', () => undefined);
    const bind = (pdu: any) => {
      const ok = pdu.system_id === account.systemId && pdu.password === account.password;
      if (ok) binds += 1;
      bindCommands.push(pdu.command);
      session.send(pdu.response({ command_status: ok ? 0 : 0x0e }));
    };
    session.on('bind_transceiver', bind);
    session.on('bind_transmitter', bind);
    session.on('enquire_link', (pdu: any) => {
      enquireLinks += 1;
      session.send(pdu.response());
    });
    session.on('unbind', (pdu: any) => {
      session.send(pdu.response());
      session.close();
    });
    session.on('submit_sm', (pdu: any) => {
      if (refusal !== null) {
        session.send(pdu.response({ command_status: refusal }));
        return;
      }
      const sm = pdu.short_message;
      submitted.push({
        destination: pdu.destination_addr,
        source: pdu.source_addr,
        text: typeof sm === 'string' ? sm : sm.message,
        udh: typeof sm === 'object' && sm.udh ? Buffer.concat(sm.udh) : null,
        dataCoding: pdu.data_coding,
      });
      const id = `smsc-${nextId++}`;
      sessionOf.set(id, session);
      session.send(pdu.response({ message_id: id }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `smpp://${account.systemId}:${account.password}@127.0.0.1:${port}`,
    submitted,
    /** bind_transceiver / bind_transmitter, in the order they came. */
    bindCommands,
    get binds() {
      return binds;
    },
    get enquireLinks() {
      return enquireLinks;
    },
    refuse(status: number | null) {
      refusal = status;
    },
    /**
     * Sends the delivery receipt of message `id` (a deliver_sm with esm_class 0x04) on the session
     * that submitted it, in the TLV form (receipted_message_id, message_state) or only as the text of
     * SMPP 3.4's Appendix B (`textOnly`, as older SMSCs do); resolves with the command_status of
     * airgift's deliver_sm_resp.
     */
    receipt(id: string, stat: 'DELIVRD' | 'UNDELIV' | 'EXPIRED' | 'ENROUTE', o: { textOnly?: boolean } = {}) {
      const session = sessionOf.get(id);
      if (!session) throw new Error(`no message ${id}`);
      const states = { ENROUTE: 1, DELIVRD: 2, EXPIRED: 3, UNDELIV: 5 };
      const text = `id:${id} sub:001 dlvrd:${stat === 'DELIVRD' ? '001' : '000'} submit date:2611261010 done date:2611261011 stat:${stat} err:${stat === 'UNDELIV' ? '001' : '000'} text:`;
      return new Promise<number>((resolve) =>
        session.deliver_sm(
          {
            source_addr: '12025550123',
            destination_addr: 'GiftDesk',
            esm_class: 0x04,
            short_message: text,
            ...(o.textOnly ? {} : { receipted_message_id: id, message_state: states[stat] }),
          },
          (resp: any) => resolve(resp.command_status),
        ),
      );
    },
    /** Drops every open session (the SMSC restarting). */
    dropSessions() {
      for (const s of [...server.sessions]) (s as any).destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of [...server.sessions]) (s as any).destroy();
        server.close(() => resolve());
      }),
  };
}

export type Smsc = Awaited<ReturnType<typeof startSmsc>>;
