{{/* Names: <release>-partyhub unless the release name already says partyhub. */}}
{{- define "partyhub.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "partyhub.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "partyhub.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
app.kubernetes.io/name: {{ include "partyhub.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{/* Selector labels of one component: (dict "ctx" $ "component" "web") */}}
{{- define "partyhub.selector" -}}
app.kubernetes.io/name: {{ include "partyhub.name" .ctx }}
app.kubernetes.io/instance: {{ .ctx.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "partyhub.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) -}}
{{- end -}}

{{- define "partyhub.secretName" -}}
{{- default (include "partyhub.fullname" .) .Values.secrets.existingSecret -}}
{{- end -}}

{{/* The headless Service of the web pods, and its full DNS name (nginx's resolver knows no search domains). */}}
{{- define "partyhub.webHeadless" -}}
{{- printf "%s-web-headless" (include "partyhub.fullname" .) -}}
{{- end -}}

{{- define "partyhub.webHeadlessFqdn" -}}
{{- printf "%s.%s.svc.%s" (include "partyhub.webHeadless" .) .Release.Namespace .Values.proxy.clusterDomain -}}
{{- end -}}

{{/* The migrations run as a hook before install and upgrade, unless the bundled PostgreSQL
     is on: it exists only once the release's resources do, so the Job is then one of them
     (named per revision) and the web pods wait for it. */}}
{{- define "partyhub.migrateAsHook" -}}
{{- if not .Values.postgresql.enabled -}}true{{- end -}}
{{- end -}}

{{/* The Host header of the kubelet's probes: the pod's IP is refused when IP hosts are off. */}}
{{- define "partyhub.probeHeaders" -}}
{{- if not .Values.config.allowIpHosts }}
{{- $host := "" -}}
{{- if .Values.config.publicUrl -}}{{- $host = (urlParse .Values.config.publicUrl).host -}}{{- end -}}
{{- if not $host -}}{{- $host = first .Values.config.allowedHosts -}}{{- end -}}
{{- if not $host -}}{{- fail "config.allowIpHosts=false needs config.publicUrl or config.allowedHosts (the probes' Host)" -}}{{- end }}
httpHeaders:
  - name: Host
    value: {{ $host | quote }}
{{- end -}}
{{- end -}}

{{/* The environment of every partyhub container: settings from the ConfigMap, secrets from the Secret. */}}
{{- define "partyhub.env" -}}
- name: SECRET_KEY
  valueFrom: {secretKeyRef: {name: {{ include "partyhub.secretName" . }}, key: SECRET_KEY}}
- name: DATABASE_URL
  valueFrom: {secretKeyRef: {name: {{ include "partyhub.secretName" . }}, key: DATABASE_URL}}
- name: REDIS_URL
  valueFrom: {secretKeyRef: {name: {{ include "partyhub.secretName" . }}, key: REDIS_URL}}
- name: METRICS_TOKEN
  valueFrom: {secretKeyRef: {name: {{ include "partyhub.secretName" . }}, key: METRICS_TOKEN, optional: true}}
{{- end -}}

{{- define "partyhub.podSecurity" -}}
runAsNonRoot: true
runAsUser: 1000
runAsGroup: 1000
fsGroup: 1000
seccompProfile: {type: RuntimeDefault}
{{- end -}}

{{- define "partyhub.containerSecurity" -}}
allowPrivilegeEscalation: false
capabilities: {drop: [ALL]}
{{- end -}}

{{/* The settings that are no secret, as env entries (docker-compose.yml's x-app-env). */}}
{{- define "partyhub.settingsEnv" -}}
- {name: PUBLIC_URL, value: {{ .Values.config.publicUrl | quote }}}
- {name: ALLOWED_HOSTS, value: {{ join "," .Values.config.allowedHosts | quote }}}
- {name: PARTYHUB_ALLOW_IP_HOSTS, value: {{ ternary "1" "0" .Values.config.allowIpHosts | quote }}}
- {name: ALLOWED_ORIGINS, value: {{ join "," .Values.config.allowedOrigins | quote }}}
- {name: TRUST_PROXY, value: "1"}
- {name: PORT, value: {{ .Values.web.port | quote }}}
- {name: DEBUG, value: "0"}
- {name: LOG_LEVEL, value: {{ .Values.config.logLevel | quote }}}
- {name: LOG_FORMAT, value: {{ .Values.config.logFormat | quote }}}
{{- range $name, $value := .Values.config.extraEnv }}
- {name: {{ $name }}, value: {{ $value | toString | quote }}}
{{- end }}
{{- end -}}

{{/* The Secret's data (base64), made here so the web pods can carry its checksum. */}}
{{- define "partyhub.secretData" -}}
{{- $name := include "partyhub.fullname" . -}}
{{- $old := (lookup "v1" "Secret" .Release.Namespace $name).data | default dict -}}
{{- $key := .Values.secrets.secretKey | b64enc -}}
{{- if not $key }}{{ $key = get $old "SECRET_KEY" | default (randAlphaNum 50 | b64enc) }}{{ end -}}
{{- $db := .Values.secrets.databaseUrl -}}
{{- if and (not $db) .Values.postgresql.enabled -}}
{{- $password := required "postgresql.enabled needs postgresql.password" .Values.postgresql.password -}}
{{- $db = printf "postgres://%s:%s@%s-postgresql:5432/%s" .Values.postgresql.user (urlquery $password) $name .Values.postgresql.database -}}
{{- end -}}
{{- $redis := .Values.secrets.redisUrl -}}
{{- if and (not $redis) .Values.redis.enabled -}}
{{- $redis = printf "redis://%s-redis:6379/0" $name -}}
{{- end }}
SECRET_KEY: {{ $key }}
DATABASE_URL: {{ required "set secrets.databaseUrl (or postgresql.enabled, or secrets.existingSecret)" $db | b64enc }}
REDIS_URL: {{ required "set secrets.redisUrl (or redis.enabled, or secrets.existingSecret)" $redis | b64enc }}
{{- with .Values.secrets.metricsToken }}
METRICS_TOKEN: {{ . | b64enc }}
{{- end }}
{{- if .Values.postgresql.enabled }}
POSTGRES_PASSWORD: {{ .Values.postgresql.password | b64enc }}
{{- end }}
{{- end -}}
