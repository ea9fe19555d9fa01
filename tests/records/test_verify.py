"""Verifying records: the page (/verifier/, open to anyone, CSRF-protected, bad input a
message and never a 500), the command ``python -m games.rules.referee --verify`` run with
the engine alone (no Django settings, no database), and a tournament's archive."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from django.test import Client

from tests.factories import make_user
from tests.records.helpers import as_bytes, played_record, tampered
from tests.tables.helpers import client_for
from tests.tournaments.helpers import play_round, started

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def record(db) -> dict:
    return played_record(11)


def more_points(record):
    record["hands"][0]["result"]["points"]["EW"] += 1


def referee(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    """The command as anyone runs it from a fresh clone: only PATH, no Django settings."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin")}
    return subprocess.run(
        [sys.executable, "-m", "games.rules.referee", "--verify", *args],
        cwd=ROOT,
        env=env,
        input=stdin,
        capture_output=True,
        timeout=120,
    )


def test_the_command_verifies_a_record_without_django_or_a_database(record, tmp_path):
    good = tmp_path / "partie.json"
    good.write_bytes(as_bytes(record))
    bad = tmp_path / "triche.json"
    bad.write_bytes(as_bytes(tampered(record, more_points)))

    ok = referee(str(good))
    refused = referee(str(good), str(bad))

    assert ok.returncode == 0, ok.stderr
    assert f"{good}: OK: partie, table {record['table']}, partie n° 1 :" in ok.stdout.decode()
    assert refused.returncode == 1
    assert f"{bad}: REFUSED: donne 1 : points : (" in refused.stdout.decode()


def test_the_engine_imports_nothing_of_django():
    code = (
        "import sys, games.rules.referee, games.rules.records;"
        "assert not [m for m in sys.modules if m.split('.')[0] == 'django'], 'django imported'"
    )
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin")}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True)
    assert done.returncode == 0, done.stderr.decode()


def test_the_command_says_what_it_cannot_read(tmp_path):
    garbage = tmp_path / "x.zip"
    garbage.write_bytes(b"PK\x03\x04 not really a zip")
    answer = referee(str(garbage), str(tmp_path / "absent.json"), stdin=b"")
    out = answer.stdout.decode()
    assert answer.returncode == 2
    assert "REFUSED: pas une archive zip" in out and "absent.json: cannot be read" in out


def test_a_tournaments_archive_downloads_and_verifies_in_one_command(tmp_path):
    tournament, organiser = started("knockout", teams=2)
    assert play_round(tournament) == 1
    player = tournament.teams.first().player_one

    page = client_for(player).get(f"/tournois/{tournament.pk}/").content.decode()
    answer = client_for(player).get(f"/tournois/{tournament.pk}/enregistrements.zip")

    assert f'href="/tournois/{tournament.pk}/enregistrements.zip"' in page
    assert answer.status_code == 200 and answer["Content-Type"] == "application/zip"
    names = zipfile.ZipFile(io.BytesIO(answer.content)).namelist()
    assert len(names) == 1 and names[0].endswith("-partie-1.json")
    archive = tmp_path / "tournoi.zip"
    archive.write_bytes(answer.content)
    done = referee(str(archive))
    assert done.returncode == 0, done.stdout
    assert f"{archive}:{names[0]}: OK: partie, table" in done.stdout.decode()
    # Someone outside the club sees no table of it: an empty archive.
    outsider = client_for(make_user()).get(f"/tournois/{tournament.pk}/enregistrements.zip")
    assert zipfile.ZipFile(io.BytesIO(outsider.content)).namelist() == []


def test_the_page_verifies_a_pasted_record_for_anyone(record):
    client = Client()
    assert client.get("/verifier/").status_code == 200

    answer = client.post("/verifier/", {"record": json.dumps(record)})

    assert answer.status_code == 200
    assert 'data-verdict="ok"' in answer.content.decode()


def test_the_page_refuses_a_tampered_upload_saying_why(record):
    upload = io.BytesIO(as_bytes(tampered(record, more_points)))
    upload.name = "partie.json"

    answer = client_for(make_user()).post("/verifier/", {"file": upload})

    page = answer.content.decode()
    assert answer.status_code == 200 and 'data-verdict="refused"' in page
    assert "donne 1 : points : (" in page and "enregistré, le rejeu donne (" in page


def test_the_page_says_why_in_english_to_an_english_reader(record):
    upload = io.BytesIO(as_bytes(tampered(record, more_points)))
    upload.name = "partie.json"
    client = Client(headers={"accept-language": "en"})

    answer = client.post("/verifier/", {"file": upload})
    good = client.post("/verifier/", {"record": json.dumps(record)})

    page = answer.content.decode()
    assert "hand 1: points: (" in page and "recorded, the replay gives (" in page
    assert "donne" not in page.split('id="verdicts"')[1].split("</section>")[0]
    assert "deals match their commitment" in good.content.decode()


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"record": "x" * 1_000_001},
    ],
)
def test_the_page_answers_bad_input_with_a_message(data):
    answer = Client().post("/verifier/", data)
    assert answer.status_code == 422
    assert 'role="alert"' in answer.content.decode()


@pytest.mark.parametrize("text", ["not json", "[]", '{"format": "belote-record/1"}', "{" * 5000])
def test_the_page_refuses_what_is_not_a_record(text):
    answer = Client().post("/verifier/", {"record": text})
    assert answer.status_code == 200
    assert 'data-verdict="refused"' in answer.content.decode()


def test_the_page_needs_the_csrf_token(record):
    answer = Client(enforce_csrf_checks=True).post("/verifier/", {"record": json.dumps(record)})
    assert answer.status_code == 403
