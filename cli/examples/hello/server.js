// The app of the README's quick start: `platform app deploy cli/examples/hello`.
import http from 'node:http';

http
  .createServer((req, res) => {
    console.log(`${req.method} ${req.url}`);
    res.end('hello from node\n');
  })
  .listen(process.env.PORT, () => console.log(`listening on ${process.env.PORT}`));
