/** The HTTP reference: a bare Deno.serve hello-world, run as its own process like the app server. */
const port = Number(Deno.args[0] ?? "0");
Deno.serve({
  hostname: "127.0.0.1",
  port,
  onListen: ({ port }) => console.log(`listening ${port}`),
}, () => new Response("Hello, World!"));
