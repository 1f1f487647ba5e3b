# The batch binary alone in an empty image: static (no cgo), the default
# corpus embedded, so the image needs no data/ and no shell.
#
#   podman build -t sudokubatch .          (or docker build)
#   podman run --rm -v "$PWD/results:/results" sudokubatch -limit 200 -out /results/first
#
# Dockerfile.host builds the same image from a binary built on the host,
# where golang:1.26 cannot be pulled. Built from a clone (.git a
# directory), the binary carries its commit (batch version, run.json).
FROM docker.io/library/golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -o /batch ./cmd/batch

FROM scratch
COPY --from=build /batch /batch
ENTRYPOINT ["/batch"]
