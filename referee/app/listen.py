"""Listening for the web pages (``serve``, ``hub``): the socket, the address in the URLs, and a
self-signed certificate made once and kept in the data directory.

Why HTTPS by default: phones refuse the camera and some browser APIs on plain HTTP, so a board
or hub on a club's Wi-Fi serves HTTPS with its own certificate (the browser asks once to trust
it); ``--http`` is for a trusted network and the tests.
"""

from __future__ import annotations

import datetime
import ipaddress
import os
import socket
from pathlib import Path


class ListenError(Exception):
    """The port cannot be listened on; the text says why in one line."""


def bind_socket(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as err:
        sock.close()
        raise ListenError(f"cannot listen on {host}:{port}: {err.strerror}") from None
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def public_host(host: str) -> str:
    """The address to put in the URLs: the machine's LAN address when listening on all."""
    if host not in ("0.0.0.0", "::", ""):
        return host
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))  # no packet is sent: this only picks a route
        return str(probe.getsockname()[0])
    except OSError:
        return "127.0.0.1"
    finally:
        probe.close()


def ensure_certificate(data: Path, host: str) -> tuple[Path, Path]:
    """A self-signed certificate for ``host`` (and localhost), made once and kept in ``data``."""
    cert_path, key_path = data / "cert.pem", data / "key.pem"
    if cert_path.exists() and key_path.exists():
        return cert_path, key_path
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Gravekeeper referee")])
    alt: list[x509.GeneralName] = [x509.DNSName("localhost"), x509.DNSName(socket.gethostname())]
    for address in {host, "127.0.0.1"}:
        try:
            alt.append(x509.IPAddress(ipaddress.ip_address(address)))
        except ValueError:
            alt.append(x509.DNSName(address))
    now = datetime.datetime.now(datetime.UTC)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name)
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(days=1))
            .not_valid_after(now + datetime.timedelta(days=3650))
            .add_extension(x509.SubjectAlternativeName(alt), critical=False)
            .sign(key, hashes.SHA256()))
    fd = os.open(key_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as handle:
        handle.write(key.private_bytes(serialization.Encoding.PEM,
                                       serialization.PrivateFormat.PKCS8,
                                       serialization.NoEncryption()))
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    return cert_path, key_path
