# One image for every pbem process: web (gunicorn with uvicorn workers, ASGI), Celery worker, Celery beat, SMTP ingress.
# docker-compose.yml picks the command; see README.md "Distributed: docker compose".

# The rules compiled with mypyc (engine/compiled.py): a C compiler and mypy are needed only here.
FROM python:3.11-slim AS engine-build
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
# (rapidfuzz: engine/notation.py, which mypy reads for the types of what the rules import)
RUN pip install --no-cache-dir --disable-pip-version-check "mypy>=1.13" "mypy-extensions>=1.0" "setuptools>=68" \
      "rapidfuzz>=3.9"
WORKDIR /app
COPY engine engine
RUN python -m engine compile build && python -m engine compile status

FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PBEM_VAR_DIR=/app/var \
    PYTHONPATH=/app

WORKDIR /app

# Dependencies first (from pyproject.toml alone), so that a code change does not reinstall them.
COPY pyproject.toml ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" \
      > /tmp/requirements.txt \
    && pip install -r /tmp/requirements.txt \
    && rm /tmp/requirements.txt

# Then the project. PYTHONPATH=/app makes the processes run this source tree, with
# templates/ and docs/ beside the packages, exactly as in a checkout.
COPY . .
# The compiled modules and their record (the guard checks them against the sources just copied).
COPY --from=engine-build /app/engine /app/engine
RUN python -m engine compile status \
    && pip install --no-deps . \
    && useradd --system --home-dir /app --shell /usr/sbin/nologin pbem \
    && mkdir -p /app/var \
    && chown -R pbem /app/var

USER pbem
EXPOSE 8000 2525
# ASGI (pbem/asgi.py): the event streams and ?wait= wait on each worker's event loop, holding no worker.
CMD ["gunicorn", "pbem.asgi:application", "--worker-class", "uvicorn_worker.UvicornWorker", "--bind", "0.0.0.0:8000", "--workers", "3", "--access-logfile", "-"]
