/**
 * RFC 3161 time-stamp responses: a TimeStampReq in, a TimeStampResp out (granted with a token, or a
 * rejection naming why). The token is CMS SignedData over a TSTInfo, signed with the TSA's key; the
 * signed attributes are contentType, signingTime, messageDigest and signingCertificateV2 (RFC 5816;
 * OpenSSL refuses a token without it). A request that cannot be parsed is still answered with a
 * rejection, never an error.
 */
import { createHash, randomBytes, sign } from 'node:crypto';
import {
  Attribute,
  CertificateChoices,
  CertificateSet,
  DigestAlgorithmIdentifiers,
  EncapsulatedContent,
  EncapsulatedContentInfo,
  id_signedData,
  IssuerAndSerialNumber,
  SignedData,
  SignerIdentifier,
  SignerInfo,
  SignerInfos,
} from '@peculiar/asn1-cms';
import { AsnConvert, OctetString } from '@peculiar/asn1-schema';
import {
  id_ct_tstInfo,
  PKIFailureInfo,
  PKIFreeText,
  PKIStatus,
  PKIStatusInfo,
  TimeStampReq,
  TimeStampResp,
  TimeStampToken,
  TSTInfo,
} from '@peculiar/asn1-tsp';
import { AlgorithmIdentifier, Certificate } from '@peculiar/asn1-x509';
import { octets, oid, seq, setOf, utcTime } from './der.js';
import { signatureAlgorithm, type TsaIdentity } from './tsa-cert.js';

/** The imprint algorithms accepted, by OID, with their digest lengths. */
export const IMPRINT_ALGORITHMS: Readonly<Record<string, { name: string; bytes: number }>> = {
  '2.16.840.1.101.3.4.2.4': { name: 'SHA-224', bytes: 28 },
  '2.16.840.1.101.3.4.2.1': { name: 'SHA-256', bytes: 32 },
};
const SHA256_OID = '2.16.840.1.101.3.4.2.1';

export interface Stamped {
  readonly response: Buffer;
  /** What was stamped, for the caller's records; undefined on a rejection. */
  readonly granted?: { algorithm: string; imprint: Buffer; serial: Buffer; genTime: Date };
  readonly failure?: Failure;
}

/** RFC 3161 §2.4.2 PKIFailureInfo bit numbers (the library's flag values are not these). */
const FAILURE_BITS = {
  badAlg: 0,
  badRequest: 2,
  badDataFormat: 5,
  unacceptedPolicy: 15,
  unacceptedExtension: 16,
} as const;
type Failure = keyof typeof FAILURE_BITS;

/** A DER named-bit BIT STRING with one bit set: trailing zero bits dropped. */
function failInfoBits(bit: number): PKIFailureInfo {
  const bytes = new Uint8Array(Math.floor(bit / 8) + 1);
  bytes[bytes.length - 1] = 0x80 >> (bit % 8);
  return new PKIFailureInfo(bytes, 7 - (bit % 8));
}

function rejection(failure: Failure, text: string): Stamped {
  const status = new PKIStatusInfo({
    status: PKIStatus.rejection,
    statusString: new PKIFreeText([text]),
    failInfo: failInfoBits(FAILURE_BITS[failure]),
  });
  return { response: Buffer.from(AsnConvert.serialize(new TimeStampResp({ status }))), failure };
}

function attribute(type: string, value: Buffer): Buffer {
  return seq(oid(type), setOf([value]));
}

export class TimeStampAuthority {
  readonly #certificate: Certificate;

  constructor(
    private readonly identity: TsaIdentity,
    private readonly policy: string,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.#certificate = AsnConvert.parse(identity.certDer, Certificate);
  }

  get certificatePem(): string {
    return this.identity.certPem;
  }

  respond(requestDer: Uint8Array): Stamped {
    let req: TimeStampReq;
    try {
      req = AsnConvert.parse(Buffer.from(requestDer), TimeStampReq);
    } catch {
      return rejection('badDataFormat', 'not a DER TimeStampReq');
    }
    if (Number(req.version) !== 1) return rejection('badRequest', 'unsupported version');
    const alg = IMPRINT_ALGORITHMS[req.messageImprint.hashAlgorithm.algorithm];
    if (!alg) return rejection('badAlg', 'the imprint must be SHA-224 or SHA-256');
    const imprint = Buffer.from(req.messageImprint.hashedMessage.buffer);
    if (imprint.length !== alg.bytes) return rejection('badDataFormat', `a ${alg.name} imprint is ${alg.bytes} bytes`);
    if (req.reqPolicy !== undefined && req.reqPolicy !== this.policy) return rejection('unacceptedPolicy', 'unknown policy');
    if (req.extensions && req.extensions.length > 0) return rejection('unacceptedExtension', 'no extensions are supported');

    const genTime = this.now();
    genTime.setUTCMilliseconds(0);
    const serial = randomBytes(16);
    // A DER INTEGER is minimal and positive: the first byte in 0x40..0x7f, never 0x00 (a leading
    // zero before a byte < 0x80 is padding, which OpenSSL refuses) nor ≥ 0x80 (negative).
    serial[0] = ((serial[0] ?? 0) & 0x3f) | 0x40;
    const tst = new TSTInfo({
      version: 1,
      policy: this.policy,
      messageImprint: req.messageImprint,
      serialNumber: serial.buffer.slice(serial.byteOffset, serial.byteOffset + serial.length),
      genTime,
      ordering: false,
      ...(req.nonce ? { nonce: req.nonce } : {}),
    });
    const tstDer = Buffer.from(AsnConvert.serialize(tst));

    const signedAttrs = [
      attribute('1.2.840.113549.1.9.3', oid(id_ct_tstInfo)),
      attribute('1.2.840.113549.1.9.5', utcTime(genTime)),
      attribute('1.2.840.113549.1.9.4', octets(createHash('sha256').update(tstDer).digest())),
      // signingCertificateV2: SEQ { SEQ OF ESSCertIDv2 { certHash } } with the default SHA-256.
      attribute('1.2.840.113549.1.9.16.2.47', seq(seq(seq(octets(createHash('sha256').update(this.identity.certDer).digest()))))),
    ].sort((a, b) => Buffer.compare(a, b));
    const signedAttrsSet = setOf(signedAttrs);
    const signature = sign('sha256', signedAttrsSet, this.identity.key);
    const sigAlg = signatureAlgorithm(this.identity.key);

    const signerInfo = new SignerInfo({
      version: 1,
      sid: new SignerIdentifier({
        issuerAndSerialNumber: new IssuerAndSerialNumber({
          issuer: this.#certificate.tbsCertificate.issuer,
          serialNumber: this.#certificate.tbsCertificate.serialNumber,
        }),
      }),
      digestAlgorithm: new AlgorithmIdentifier({ algorithm: SHA256_OID }),
      signedAttrs: signedAttrs.map((a) => AsnConvert.parse(a, Attribute)),
      signatureAlgorithm: AsnConvert.parse(sigAlg.der, AlgorithmIdentifier),
      signature: new OctetString(signature),
    });
    const signedData = new SignedData({
      version: 3,
      digestAlgorithms: new DigestAlgorithmIdentifiers([new AlgorithmIdentifier({ algorithm: SHA256_OID })]),
      encapContentInfo: new EncapsulatedContentInfo({
        eContentType: id_ct_tstInfo,
        eContent: new EncapsulatedContent({ single: new OctetString(tstDer) }),
      }),
      ...(req.certReq ? { certificates: new CertificateSet([new CertificateChoices({ certificate: this.#certificate })]) } : {}),
      signerInfos: new SignerInfos([signerInfo]),
    });
    const token = new TimeStampToken({ contentType: id_signedData, content: AsnConvert.serialize(signedData) });
    const response = new TimeStampResp({ status: new PKIStatusInfo({ status: PKIStatus.granted }), timeStampToken: token });
    return { response: Buffer.from(AsnConvert.serialize(response)), granted: { algorithm: alg.name, imprint, serial, genTime } };
  }
}
