#!/usr/bin/env bash
# Runs a command with a private S3-compatible store: moto on a free port with authentication
# enforced, an IAM user with a key and an s3:* policy, a bucket, and scripts/s3-test-gateway.py in
# front (moto cannot check presigned URLs itself). Exports FEEDS_TEST_S3_ENDPOINT, _REGION, _BUCKET,
# _ACCESS_KEY_ID and _SECRET_ACCESS_KEY; stops everything afterwards, even when the command fails.
# Nests with the PostgreSQL one: scripts/with-test-postgres.sh scripts/with-test-s3.sh swift test
set -euo pipefail

python3 -c 'import moto.server, boto3, botocore' 2>/dev/null \
  || { echo "moto is missing: run scripts/install-deps.sh (pip install 'moto[server]')" >&2; exit 1; }
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d /tmp/feeds-test-s3.XXXXXX)
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_for_port() {
  for _ in $(seq 1 100); do
    python3 -c "import socket,sys; socket.create_connection(('127.0.0.1',$1),0.2)" 2>/dev/null && return 0
    sleep 0.1
  done
  echo "nothing listens on port $1; logs in $dir" >&2
  cat "$dir"/*.log >&2
  return 1
}
moto_port=$(free_port)
gateway_port=$(free_port)
pids=()
stop() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$dir"
}
trap stop EXIT

# Moto checks no signature at all by default, which would hide every signing bug: only these
# first three calls (the user, its policy, its key) go unchecked; every later one must be signed right.
INITIAL_NO_AUTH_ACTION_COUNT=3 python3 -m moto.server -H 127.0.0.1 -p "$moto_port" >"$dir/moto.log" 2>&1 &
pids+=($!)
wait_for_port "$moto_port"

export FEEDS_TEST_S3_REGION=us-east-1
export FEEDS_TEST_S3_BUCKET=feeds-test
read -r FEEDS_TEST_S3_ACCESS_KEY_ID FEEDS_TEST_S3_SECRET_ACCESS_KEY < <(MOTO_URL="http://127.0.0.1:$moto_port" python3 - <<'PY'
import json, os, boto3, botocore
url = os.environ["MOTO_URL"]
iam = boto3.client("iam", endpoint_url=url, region_name="us-east-1", aws_access_key_id="setup", aws_secret_access_key="setup")
iam.create_user(UserName="feeds-test")
policy = {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "s3:*", "Resource": "*"}]}
iam.put_user_policy(UserName="feeds-test", PolicyName="s3", PolicyDocument=json.dumps(policy))
key = iam.create_access_key(UserName="feeds-test")["AccessKey"]
s3 = boto3.client("s3", endpoint_url=url, region_name="us-east-1",
                  aws_access_key_id=key["AccessKeyId"], aws_secret_access_key=key["SecretAccessKey"])
s3.create_bucket(Bucket="feeds-test")
wrong = boto3.client("s3", endpoint_url=url, region_name="us-east-1",
                     aws_access_key_id=key["AccessKeyId"], aws_secret_access_key="wrong")
try:
    wrong.list_objects_v2(Bucket="feeds-test")
    raise SystemExit("moto accepted a wrong secret: authentication is not enforced")
except botocore.exceptions.ClientError as error:
    assert error.response["Error"]["Code"] == "SignatureDoesNotMatch", error.response
print(key["AccessKeyId"], key["SecretAccessKey"])
PY
)
export FEEDS_TEST_S3_ACCESS_KEY_ID FEEDS_TEST_S3_SECRET_ACCESS_KEY

python3 "$here/s3-test-gateway.py" "$gateway_port" "http://127.0.0.1:$moto_port" >"$dir/gateway.log" 2>&1 &
pids+=($!)
wait_for_port "$gateway_port"
export FEEDS_TEST_S3_ENDPOINT="http://127.0.0.1:$gateway_port"
echo "test S3 store on $FEEDS_TEST_S3_ENDPOINT (moto on $moto_port, authentication enforced)"
"$@"
