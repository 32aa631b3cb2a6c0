"""A self-signed certificate for the web pages, made once and kept in the data directory.

Why HTTPS by default: phones refuse the camera and some browser APIs on plain HTTP, so a board
or hub on a club's Wi-Fi serves HTTPS with its own certificate (the browser asks once to trust
it). ``--http`` is for a trusted network and the tests.
"""

from __future__ import annotations

import datetime
import ipaddress
import os
from pathlib import Path


def ensure_certificate(data_dir: Path, hosts: list[str]) -> tuple[Path, Path]:
    """``(cert.pem, key.pem)`` in ``data_dir``, made on first use (valid ten years)."""
    cert_path, key_path = data_dir / "cert.pem", data_dir / "key.pem"
    if cert_path.is_file() and key_path.is_file():
        return cert_path, key_path
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Gravekeeper")])
    names: list[x509.GeneralName] = []
    for host in dict.fromkeys(hosts + ["localhost", "127.0.0.1"]):
        try:
            names.append(x509.IPAddress(ipaddress.ip_address(host)))
        except ValueError:
            names.append(x509.DNSName(host))
    now = datetime.datetime.now(datetime.UTC)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name)
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(days=1))
            .not_valid_after(now + datetime.timedelta(days=3650))
            .add_extension(x509.SubjectAlternativeName(names), critical=False)
            .sign(key, hashes.SHA256()))
    tmp_key = key_path.with_suffix(".tmp")
    fd = os.open(tmp_key, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(key.private_bytes(serialization.Encoding.PEM,
                                    serialization.PrivateFormat.PKCS8,
                                    serialization.NoEncryption()))
    os.replace(tmp_key, key_path)
    tmp_cert = cert_path.with_suffix(".tmp")
    tmp_cert.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    os.replace(tmp_cert, cert_path)
    return cert_path, key_path
