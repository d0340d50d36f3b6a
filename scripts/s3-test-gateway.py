#!/usr/bin/env python3
"""Stands in front of moto for the tests, because moto with authentication enforced cannot answer
presigned (query-signed) URLs: it looks for the Authorization header such a request lacks and
fails with a 500.

Requests signed in the Authorization header go to moto untouched, Host included, so moto checks
their signatures itself. A presigned GET or HEAD is checked here with botocore, AWS's own signer
(signature, credential, expiry), then fetched from moto with a header-signed request.

Usage: s3-test-gateway.py PORT MOTO_URL   (credentials from FEEDS_TEST_S3_ACCESS_KEY_ID,
FEEDS_TEST_S3_SECRET_ACCESS_KEY, FEEDS_TEST_S3_REGION)
"""
import datetime
import hmac
import http.client
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl, quote, urlsplit

import botocore.auth
from botocore.auth import S3SigV4Auth, S3SigV4QueryAuth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials

PORT = int(sys.argv[1])
MOTO = urlsplit(sys.argv[2])
CREDENTIALS = Credentials(os.environ["FEEDS_TEST_S3_ACCESS_KEY_ID"], os.environ["FEEDS_TEST_S3_SECRET_ACCESS_KEY"])
REGION = os.environ.get("FEEDS_TEST_S3_REGION", "us-east-1")
HOP_BY_HOP = {"connection", "keep-alive", "transfer-encoding", "proxy-connection", "upgrade"}
# botocore signs "now"; checking a signature means signing at the request's own time.
CLOCK = threading.Lock()


def expected_signature(method, host, path, params, amz_date, expires):
    query = "&".join(f"{quote(k, safe='-_.~')}={quote(v, safe='-_.~')}" for k, v in params)
    request = AWSRequest(method=method, url=f"http://{host}{path}" + (f"?{query}" if query else ""), headers={"host": host})
    signed_at = datetime.datetime.strptime(amz_date, "%Y%m%dT%H%M%SZ")
    with CLOCK:
        original = botocore.auth.get_current_datetime
        botocore.auth.get_current_datetime = lambda: signed_at
        try:
            S3SigV4QueryAuth(CREDENTIALS, "s3", REGION, expires=expires).add_auth(request)
        finally:
            botocore.auth.get_current_datetime = original
    return dict(parse_qsl(urlsplit(request.url).query))["X-Amz-Signature"]


class Gateway(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        self.route()

    def do_HEAD(self):
        self.route()

    def do_PUT(self):
        self.route()

    def do_DELETE(self):
        self.route()

    def do_POST(self):
        self.route()

    def route(self):
        path, _, query = self.path.partition("?")
        params = parse_qsl(query, keep_blank_values=True)
        if "Authorization" not in self.headers and any(k == "X-Amz-Signature" for k, _ in params):
            self.presigned(path, params)
        else:
            self.forward(self.command, self.path, list(self.headers.items()), self.body_length())

    def presigned(self, path, params):
        given = dict(params)
        # botocore adds the X-Amz-* parameters itself, from the date and lifetime given.
        rest = [(k, v) for k, v in params if not k.startswith("X-Amz-")]
        try:
            signature = expected_signature(
                self.command, self.headers["Host"], path, rest, given["X-Amz-Date"], int(given["X-Amz-Expires"]))
            signed_at = datetime.datetime.strptime(given["X-Amz-Date"], "%Y%m%dT%H%M%SZ").replace(tzinfo=datetime.timezone.utc)
        except (KeyError, ValueError):
            return self.refuse(400, "AuthorizationQueryParametersError", "malformed presigned URL")
        if not given.get("X-Amz-Credential", "").startswith(CREDENTIALS.access_key + "/"):
            return self.refuse(403, "InvalidAccessKeyId", "unknown access key")
        if not hmac.compare_digest(signature, given["X-Amz-Signature"]):
            return self.refuse(403, "SignatureDoesNotMatch", "The request signature we calculated does not match")
        if time.time() > signed_at.timestamp() + int(given["X-Amz-Expires"]):
            return self.refuse(403, "AccessDenied", "Request has expired")
        target = path + ("?" + "&".join(f"{quote(k, safe='-_.~')}={quote(v, safe='-_.~')}" for k, v in rest) if rest else "")
        host = MOTO.netloc
        wanted = {"range", "if-none-match", "if-match", "if-modified-since", "if-unmodified-since"}
        headers = {k: v for k, v in self.headers.items() if k.lower() in wanted}
        headers["host"] = host
        request = AWSRequest(method=self.command, url=f"http://{host}{target}", headers=headers)
        S3SigV4Auth(CREDENTIALS, "s3", REGION).add_auth(request)
        self.forward(self.command, target, list(request.headers.items()), 0)

    def body_length(self):
        if "chunked" in self.headers.get("Transfer-Encoding", ""):
            raise ValueError("chunked request bodies are not relayed")
        return int(self.headers.get("Content-Length", "0"))

    def forward(self, method, target, headers, length):
        connection = http.client.HTTPConnection(MOTO.hostname, MOTO.port, timeout=300)
        connection.putrequest(method, target, skip_host=True, skip_accept_encoding=True)
        for name, value in headers:
            if name.lower() not in HOP_BY_HOP:
                connection.putheader(name, value)
        connection.endheaders()
        while length > 0:
            chunk = self.rfile.read(min(length, 1 << 20))
            if not chunk:
                break
            connection.send(chunk)
            length -= len(chunk)
        response = connection.getresponse()
        body = b"" if method == "HEAD" else response.read()
        self.send_response_only(response.status, response.reason)
        for name, value in response.getheaders():
            if name.lower() not in HOP_BY_HOP and name.lower() != "content-length":
                self.send_header(name, value)
        declared = response.getheader("Content-Length")
        self.send_header("Content-Length", declared if method == "HEAD" and declared else str(len(body)))
        self.end_headers()
        if method != "HEAD":
            self.wfile.write(body)
        connection.close()

    def refuse(self, status, code, message):
        body = f"<?xml version='1.0' encoding='UTF-8'?><Error><Code>{code}</Code><Message>{message}</Message></Error>".encode()
        self.send_response_only(status)
        self.send_header("Content-Type", "application/xml")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)


ThreadingHTTPServer.daemon_threads = True
ThreadingHTTPServer(("127.0.0.1", PORT), Gateway).serve_forever()
