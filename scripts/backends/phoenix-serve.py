"""Starts `phoenix serve` with its OTLP gRPC receiver on 127.0.0.1 only.

Phoenix binds its gRPC receiver to every interface ("[::]:<port>"); its HTTP server takes
PHOENIX_HOST. The backend tests listen on 127.0.0.1 alone, so this launcher rewrites the gRPC
address before Phoenix starts. Run it with the Python of Phoenix's virtual environment.
"""
import sys

import grpc.aio

_server = grpc.aio.server


def _loopback_server(*args, **kwargs):
    server = _server(*args, **kwargs)
    add_insecure_port = server.add_insecure_port
    server.add_insecure_port = lambda address: add_insecure_port(
        address.replace("[::]:", "127.0.0.1:")
    )
    return server


grpc.aio.server = _loopback_server

from phoenix.server.main import main  # noqa: E402

if __name__ == "__main__":
    sys.argv = ["phoenix", "serve"]
    sys.exit(main())
