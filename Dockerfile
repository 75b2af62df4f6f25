# One image for every pbem process: web (gunicorn with uvicorn workers, ASGI), Celery worker, Celery beat, SMTP ingress.
# docker-compose.yml picks the command; see README.md "Distributed set-up".
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
RUN pip install --no-deps . \
    && useradd --system --home-dir /app --shell /usr/sbin/nologin pbem \
    && mkdir -p /app/var \
    && chown -R pbem /app/var

USER pbem
EXPOSE 8000 2525
# ASGI (pbem/asgi.py): the event streams and ?wait= wait on each worker's event loop, holding no worker.
CMD ["gunicorn", "pbem.asgi:application", "--worker-class", "uvicorn_worker.UvicornWorker", "--bind", "0.0.0.0:8000", "--workers", "3", "--access-logfile", "-"]
