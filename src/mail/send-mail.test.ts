import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { SMTP_TIMEOUTS_MS, sendMail } from "./send-mail";

const message = {
  to: "ada@example.test",
  subject: "Your clips are ready",
  text: "Hello",
  html: "<p>Hello</p>",
};
const from = "Truss <no-reply@truss.test>";

const servers: net.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A TCP server on a free local port; `onConnection` plays the SMTP server's part. */
async function listen(onConnection: (socket: net.Socket) => void): Promise<string> {
  const server = net.createServer(onConnection);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `smtp://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
}

/** Enough of SMTP (RFC 5321) for one message, without TLS or auth; each message's DATA is kept. */
function fakeSmtpServer(received: string[]) {
  return (socket: net.Socket) => {
    let buffered = "";
    let inData = false;
    socket.write("220 fake ESMTP\r\n");
    socket.on("data", (chunk) => {
      buffered += chunk.toString("utf8");
      while (true) {
        if (inData) {
          const end = buffered.indexOf("\r\n.\r\n");
          if (end < 0) return;
          received.push(buffered.slice(0, end));
          buffered = buffered.slice(end + 5);
          inData = false;
          socket.write("250 queued\r\n");
          continue;
        }
        const lineEnd = buffered.indexOf("\r\n");
        if (lineEnd < 0) return;
        const command = buffered.slice(0, lineEnd).toUpperCase();
        buffered = buffered.slice(lineEnd + 2);
        if (command.startsWith("EHLO") || command.startsWith("HELO")) socket.write("250 fake\r\n");
        else if (command.startsWith("DATA")) {
          inData = true;
          socket.write("354 go on\r\n");
        } else if (command.startsWith("QUIT")) socket.end("221 bye\r\n");
        else socket.write("250 ok\r\n");
      }
    });
  };
}

describe("sendMail over SMTP", () => {
  it("delivers the message to the server named by SMTP_URL", async () => {
    const received: string[] = [];
    const smtpUrl = await listen(fakeSmtpServer(received));
    const delivery = await sendMail({
      mail: { smtpUrl, from, outboxPath: "/nonexistent/outbox.jsonl" },
      message,
    });
    expect(delivery).toBe("smtp");
    expect(received).toHaveLength(1);
    expect(received[0]).toMatch(/^Subject: Your clips are ready\r$/m);
    expect(received[0]).toMatch(/^To: ada@example\.test\r$/m);
  });

  it("gives up on a server that accepts the connection and never greets, instead of waiting minutes", async () => {
    const smtpUrl = await listen(() => {
      // Silent: as a firewall or a hung server leaves a connection.
    });
    const started = Date.now();
    const error = await sendMail({
      mail: { smtpUrl, from, outboxPath: "/nonexistent/outbox.jsonl" },
      message,
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/greeting/i);
    expect(Date.now() - started).toBeLessThan(SMTP_TIMEOUTS_MS.greetingTimeout + 3_000);
  }, 20_000);
});
